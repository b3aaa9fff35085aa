import type { Tap } from './proxy.js';

/** What has passed to the store, as the store itself counts it. */
export interface StoreMeter {
  /** Requests by operation (`Query`, `PutItem`, `GetItem`, ...). */
  readonly requests: ReadonlyMap<string, number>;
  readonly counts: {
    /** Items that Query and GetItem answers returned. */
    readonly itemsRead: number;
    /** Puts refused by their condition (DynamoDB bills them as writes too). */
    readonly failedPuts: number;
    /** Capacity units the store reports for the answered requests (ReturnConsumedCapacity). */
    readonly readUnits: number;
    readonly writeUnits: number;
  };
  /** The same by table: requests, items read and units, per table name. */
  readonly tables: ReadonlyMap<string, TableCounts>;
  readonly tap: Tap;
}

export interface TableCounts {
  requests: number;
  itemsRead: number;
  itemsWritten: number;
  readUnits: number;
  writeUnits: number;
}

/**
 * A benchmark's meter on the store's traffic: counts each request and asks the store what it cost
 * (every request carries `ReturnConsumedCapacity: TOTAL`; dynalite computes the units by DynamoDB's
 * rules: reads per 4 KB, half for an eventually consistent read; writes per 1 KB).
 */
export function storeMeter(): StoreMeter {
  const requests = new Map<string, number>();
  const counts = { itemsRead: 0, failedPuts: 0, readUnits: 0, writeUnits: 0 };
  const tables = new Map<string, TableCounts>();
  const tableOf = (name: unknown) => {
    const key = String(name);
    let table = tables.get(key);
    if (!table) {
      table = { requests: 0, itemsRead: 0, itemsWritten: 0, readUnits: 0, writeUnits: 0 };
      tables.set(key, table);
    }
    return table;
  };
  const tap: Tap = {
    before: ({ operation, body }) => {
      requests.set(operation, (requests.get(operation) ?? 0) + 1);
      tableOf(body.TableName).requests++;
      return { ...body, ReturnConsumedCapacity: 'TOTAL' };
    },
    after: ({ operation, body }, answer) => {
      if (!answer) return;
      const table = tableOf(body.TableName);
      if (answer.status !== 200) {
        if (operation === 'PutItem' && JSON.stringify(answer.body).includes('ConditionalCheckFailed'))
          counts.failedPuts++;
        return;
      }
      const read =
        operation === 'Query'
          ? Number(answer.body.ScannedCount ?? answer.body.Count ?? 0)
          : operation === 'GetItem' && answer.body.Item
            ? 1
            : 0;
      counts.itemsRead += read;
      table.itemsRead += read;
      if (operation === 'PutItem' || operation === 'UpdateItem') table.itemsWritten++;
      const consumed = answer.body.ConsumedCapacity as
        | { CapacityUnits?: number }
        | { CapacityUnits?: number }[]
        | undefined;
      const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      const reads = operation === 'Query' || operation === 'GetItem' || operation === 'Scan';
      if (reads) {
        counts.readUnits += units;
        table.readUnits += units;
      } else {
        counts.writeUnits += units;
        table.writeUnits += units;
      }
    },
  };
  return { requests, counts, tables, tap };
}
