import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureTables, WrongTable } from '../../infra/local/store.js';

/**
 * The tables a runtime is told to use (infra/local/store.ts): the event log is never deleted or
 * changed, whatever the names given; only a read-model table kept from another release is made anew.
 */

let server: Server;
let endpoint: string;
let client: DynamoDBClient;
let run = 0;
/** Fresh names for each test: the store is shared. */
let log: string;
let read: string;

beforeAll(async () => {
  server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  client?.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  run++;
  log = `log-${run}`;
  read = `read-models-${run}`;
  await ensureTables(endpoint, log, read);
  await client.send(
    new PutItemCommand({ TableName: log, Item: { pk: { S: 'g1' }, sk: { N: '0' }, owner: { S: 'p' } } }),
  );
});

/** The log's one item is still there, in a table of the log's shape. */
async function logKept(): Promise<void> {
  const { Item } = await client.send(
    new GetItemCommand({ TableName: log, Key: { pk: { S: 'g1' }, sk: { N: '0' } }, ConsistentRead: true }),
  );
  expect(Item?.owner?.S).toBe('p');
}

/** A table keyed (pk, sk) with `sk` of `sortType`, and one index. */
async function createTable(
  TableName: string,
  sortType: 'S' | 'N',
  index: { readonly name: string; readonly partitionKey: string; readonly sortKey?: string },
): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: sortType },
        { AttributeName: index.partitionKey, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : []),
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
}

const indexesOf = async (TableName: string) =>
  ((await client.send(new DescribeTableCommand({ TableName }))).Table?.GlobalSecondaryIndexes ?? [])
    .map((index) => index.IndexName)
    .sort();

describe('ensureTables', () => {
  it('keeps tables of the right shape as they are', async () => {
    await expect(ensureTables(endpoint, log, read)).resolves.toEqual({ rebuild: false });
    await logKept();
  });

  it('refuses the two names swapped, naming the table and what is wrong, and deletes neither', async () => {
    const swapped = ensureTables(endpoint, read, log);
    await expect(swapped).rejects.toThrow(WrongTable);
    await expect(swapped).rejects.toThrow(
      `the table ${read} at ${endpoint} is not an event log: its key is pk (S), sk (S) with the indexes byRank, byStatus, where an event log has pk (S), sk (N) with no index; name the event log in TABLE_NAME. The table was left as it is.`,
    );
    await logKept();
    expect(await indexesOf(read)).toEqual(['byRank', 'byStatus']);
  });

  it('refuses READ_TABLE_NAME naming the event log, and leaves the log as it is', async () => {
    await expect(ensureTables(endpoint, `another-log-${run}`, log)).rejects.toThrow(
      `the table ${log} at ${endpoint} is not a read-model table: its key is pk (S), sk (N) with no index`,
    );
    await logKept();
  });

  it('refuses an event table with an index the log has not, and leaves it as it is', async () => {
    const indexed = `indexed-log-${run}`;
    await createTable(indexed, 'N', { name: 'byOwner', partitionKey: 'owner' });
    await expect(ensureTables(endpoint, indexed, read)).rejects.toThrow(
      `the table ${indexed} at ${endpoint} is not an event log: its key is pk (S), sk (N) with the index byOwner,`,
    );
    expect(await indexesOf(indexed)).toEqual(['byOwner']);
  });

  it('refuses one name for both tables', async () => {
    await expect(ensureTables(endpoint, log, log)).rejects.toThrow(
      `TABLE_NAME and READ_TABLE_NAME both name the table ${log}: the event log and the read models need a table each.`,
    );
    await logKept();
  });

  it('makes a read-model table from a release with other indexes anew, and says to rebuild', async () => {
    const older = `older-read-models-${run}`;
    await createTable(older, 'S', { name: 'byStatus', partitionKey: 'status', sortKey: 'sk' });
    await expect(ensureTables(endpoint, log, older)).resolves.toEqual({ rebuild: true });
    expect(await indexesOf(older)).toEqual(['byRank', 'byStatus']);
    await logKept();
  });
});
