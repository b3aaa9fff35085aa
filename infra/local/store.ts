import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { TABLE_KEYS } from '../../functions/store/table.js';

export interface LocalStore {
  readonly endpoint: string;
  readonly tableName: string;
  close(): Promise<void>;
}

/**
 * An embedded DynamoDB-compatible store (dynalite) on a free loopback port, with the service's table
 * created as the stack creates it. In memory unless `dataDir` is given.
 */
export async function startLocalStore(
  options: { dataDir?: string; tableName?: string } = {},
): Promise<LocalStore> {
  const server: Server = dynalite({
    createTableMs: 0,
    ...(options.dataDir ? { path: options.dataDir } : {}),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tableName = options.tableName ?? 'klondike-local';
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: TABLE_KEYS.partitionKey, AttributeType: 'S' },
          { AttributeName: TABLE_KEYS.sortKey, AttributeType: 'N' },
        ],
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error; // kept from an earlier run
  }
  await client.send(new DescribeTableCommand({ TableName: tableName }));
  client.destroy();
  return {
    endpoint,
    tableName,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
