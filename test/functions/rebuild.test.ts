import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rebuildReadModels } from '../../functions/projector/rebuild.js';
import { TABLE_ENV } from '../../functions/routes.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';

/**
 * A rebuild deletes the read models that no game of the log gives: its Scan of the log must see
 * every deal written before it listed them, or a row the projector has just written (for a game
 * dealt a moment before) would be taken for a stray and deleted.
 */
const ddb = mockClient(DynamoDBDocumentClient);

beforeAll(() => {
  process.env[TABLE_ENV] = 'events';
  process.env[READ_TABLE_ENV] = 'read-models';
});
afterAll(() => {
  ddb.restore();
});

it("reads the log's deals with a strongly consistent Scan", async () => {
  ddb.on(ScanCommand).resolves({ Items: [] });
  await rebuildReadModels();
  const scans = ddb.commandCalls(ScanCommand, { TableName: 'events' });
  expect(scans).toHaveLength(1);
  expect(scans[0]!.args[0].input.ConsistentRead).toBe(true);
});
