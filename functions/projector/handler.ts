import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../log.js';
import { PROFILE_KEY_PREFIX } from '../routes.js';
import { projectGame, projectName, refreshStats } from './project.js';

/**
 * The projector: consumes the event table's change stream (DynamoDB Streams in AWS; the local
 * runtime delivers the same records) and keeps the read models up to the log. Each game in the batch
 * is projected once, from its log as it stands. A game that fails is reported as a batch item
 * failure at its first record, so Lambda retries from there (and, bisecting, isolates it); the
 * others stand. A player's chosen name (`profile#...`) goes to their daily attempts. Other records
 * beside the log (deals of the day, claims, creations, first answers: `pk` with a `#`) and those of
 * anonymous games (no `owner`; in AWS the mapping's filter keeps them out) are skipped.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const games = new Map<string, { first: string; dealt: boolean }>();
  const renamed = new Map<string, string>();
  for (const record of event.Records) {
    const pk = record.dynamodb?.Keys?.pk?.S;
    const named = record.dynamodb?.NewImage?.player?.S;
    if (pk?.startsWith(PROFILE_KEY_PREFIX) && named !== undefined && record.eventName !== 'REMOVE') {
      if (!renamed.has(named)) renamed.set(named, record.dynamodb?.SequenceNumber ?? '');
      continue;
    }
    // Only players' games have read models: an anonymous game's items carry no owner.
    if (!pk || pk.includes('#') || record.eventName === 'REMOVE' || !record.dynamodb?.NewImage?.owner)
      continue;
    const game = games.get(pk) ?? { first: record.dynamodb?.SequenceNumber ?? '', dealt: false };
    game.dealt ||= record.dynamodb?.Keys?.sk?.N === '0';
    games.set(pk, game);
  }
  const batchItemFailures: { itemIdentifier: string }[] = [];
  // A player's statistics are recomputed once a batch, however many of their games it holds.
  const players = new Map<string, string[]>();
  for (const [id, game] of games) {
    try {
      const player = await projectGame(id, game.dealt);
      if (player !== undefined) players.set(player, [...(players.get(player) ?? []), game.first]);
    } catch (error) {
      logger.error('projection failed', { gameId: id, error: (error as Error)?.message ?? String(error) });
      batchItemFailures.push({ itemIdentifier: game.first });
    }
  }
  for (const [player, first] of renamed) {
    try {
      await projectName(player);
    } catch (error) {
      logger.error('renaming failed', { error: (error as Error)?.message ?? String(error) });
      batchItemFailures.push({ itemIdentifier: first });
    }
  }
  for (const [player, firsts] of players) {
    try {
      await refreshStats(player);
    } catch (error) {
      logger.error('statistics failed', { error: (error as Error)?.message ?? String(error) });
      for (const first of firsts) batchItemFailures.push({ itemIdentifier: first });
    }
  }
  return { batchItemFailures };
}
