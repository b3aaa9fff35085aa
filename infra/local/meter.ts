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
  readonly tap: Tap;
}

/**
 * A benchmark's meter on the store's traffic: counts each request and asks the store what it cost
 * (every request carries `ReturnConsumedCapacity: TOTAL`; dynalite computes the units by DynamoDB's
 * rules: reads per 4 KB, half for an eventually consistent read; writes per 1 KB).
 */
export function storeMeter(): StoreMeter {
  const requests = new Map<string, number>();
  const counts = { itemsRead: 0, failedPuts: 0, readUnits: 0, writeUnits: 0 };
  const tap: Tap = {
    before: ({ operation, body }) => {
      requests.set(operation, (requests.get(operation) ?? 0) + 1);
      return { ...body, ReturnConsumedCapacity: 'TOTAL' };
    },
    after: ({ operation }, answer) => {
      if (!answer) return;
      if (answer.status !== 200) {
        if (operation === 'PutItem' && JSON.stringify(answer.body).includes('ConditionalCheckFailed'))
          counts.failedPuts++;
        return;
      }
      if (operation === 'Query') counts.itemsRead += Number(answer.body.Count ?? 0);
      if (operation === 'GetItem' && answer.body.Item) counts.itemsRead++;
      const consumed = answer.body.ConsumedCapacity as
        | { CapacityUnits?: number }
        | { CapacityUnits?: number }[]
        | undefined;
      const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      const reads = operation === 'Query' || operation === 'GetItem' || operation === 'Scan';
      if (reads) counts.readUnits += units;
      else counts.writeUnits += units;
    },
  };
  return { requests, counts, tap };
}
