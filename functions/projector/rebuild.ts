import { BatchWriteCommand, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { storeCall, tableName } from '../store/client.js';
import { READ_KEYS, readTableName } from '../store/readModels.js';
import { projectRow, refreshStats } from './project.js';

async function* scan(input: ScanCommandInput): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await storeCall((client, abortSignal) =>
      client.send(new ScanCommand({ ...input, ExclusiveStartKey: start }), { abortSignal }),
    );
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Deletes every read model (the projector's table only: the log is never touched). */
export async function deleteReadModels(): Promise<number> {
  const TableName = readTableName();
  let deleted = 0;
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    let requests = batch.map((Key) => ({ DeleteRequest: { Key } }));
    batch = [];
    while (requests.length > 0) {
      const answer = await storeCall((client, abortSignal) =>
        client.send(new BatchWriteCommand({ RequestItems: { [TableName]: requests } }), { abortSignal }),
      );
      deleted += requests.length - (answer.UnprocessedItems?.[TableName]?.length ?? 0);
      requests = (answer.UnprocessedItems?.[TableName] ?? []) as typeof requests;
    }
  };
  for await (const item of scan({
    TableName,
    ProjectionExpression: '#pk, #sk',
    ExpressionAttributeNames: { '#pk': READ_KEYS.partitionKey, '#sk': READ_KEYS.sortKey },
  })) {
    batch.push({
      [READ_KEYS.partitionKey]: item[READ_KEYS.partitionKey],
      [READ_KEYS.sortKey]: item[READ_KEYS.sortKey],
    });
    if (batch.length === 25) await flush();
  }
  await flush();
  return deleted;
}

/**
 * Deletes every read model and builds them again from the log alone: every signed-in player's game
 * is found by its deal in a scan of the event table and projected as the projector does it (so a
 * rebuild and the stream agree by construction), then each player's statistics once.
 */
export async function rebuildReadModels(): Promise<{ deleted: number; games: number; players: number }> {
  const deleted = await deleteReadModels();
  const players = new Set<string>();
  let games = 0;
  for await (const item of scan({
    TableName: tableName(),
    // Deals of signed-in players' games (the records beside the log have no type).
    FilterExpression: 'sk = :deal AND attribute_exists(#owner) AND attribute_exists(#type)',
    ExpressionAttributeNames: { '#owner': 'owner', '#type': 'type' },
    ExpressionAttributeValues: { ':deal': 0 },
    ProjectionExpression: 'pk',
  })) {
    const row = await projectRow(item.pk as string);
    if (row) players.add(row.player);
    games++;
  }
  for (const player of players) await refreshStats(player);
  return { deleted, games, players: players.size };
}
