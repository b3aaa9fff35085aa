import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { GameRecord, GameStatus, PlayerStats, Rules, Score } from '../../domain/index.js';
import { storeCall } from './client.js';
import { putIf, queryItems, queryPage, scanItems } from './table.js';

/**
 * The read models (docs/api.md), in a table of their own that only the projector writes:
 * a row per game of each signed-in player, and one statistics item per player. They are built from
 * the event log alone and can be deleted and rebuilt at any time (`npm run rebuild-projections`).
 *
 * - A game's row: `pk = player#<sub>`, `sk = game#<createdAt>#<id>`, so a Query newest first lists a
 *   player's games in the order they were dealt; the index `byStatus` (`status = player#<sub>#<status>`,
 *   same `sk`) lists them by status the same way.
 * - A player's statistics: `pk = player#<sub>`, `sk = stats`, one GetItem however many games.
 */
export const READ_TABLE_ENV = 'READ_TABLE_NAME';
export const READ_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;
export const BY_STATUS = { indexName: 'byStatus', partitionKey: 'status', sortKey: 'sk' } as const;

export const readTableName = (): string => {
  const name = process.env[READ_TABLE_ENV];
  if (!name) throw new Error(`${READ_TABLE_ENV} is not set`);
  return name;
};

/** A game as "my games" lists it: nothing hidden while it is in play. */
export interface GameSummary {
  readonly id: string;
  readonly status: GameStatus;
  readonly rules: Rules;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
  readonly moves: number;
  readonly score: Score;
  /** Only once the game has ended: its seed, or null for a deal not chosen by number. */
  readonly seed?: number | null;
  /** A game on a daily deal: its UTC day. */
  readonly daily?: string;
}

const playerKey = (player: string) => `player#${player}`;
const rowKey = (summary: GameSummary) => `game#${summary.createdAt}#${summary.id}`;

/**
 * How a save treats what the table holds: the projector writes only what is newer (a record seen
 * twice or late changes nothing); a rebuild also replaces what is as new (figures from the log
 * replace whatever a row held at that version), never what is newer.
 */
export type Replace = 'newer' | 'as-new';
export const newerThan = (replace: Replace) => (replace === 'newer' ? '<' : '<=');

/** A read model's key, as `readModelKeys` lists them and `deleteReadModels` takes them. */
export type ReadKey = { readonly pk: string; readonly sk: string };
export const rowKeyOf = (player: string, summary: GameSummary): ReadKey => ({
  pk: playerKey(player),
  sk: rowKey(summary),
});
export const statsKeyOf = (player: string): ReadKey => ({ pk: playerKey(player), sk: 'stats' });

/**
 * Saves a game's row, unless the table already holds it at a later version (or at this one, for
 * the projector). True when it was written.
 */
export function saveSummary(
  player: string,
  summary: GameSummary,
  replace: Replace = 'newer',
): Promise<boolean> {
  return putIf(
    readTableName(),
    {
      pk: playerKey(player),
      sk: rowKey(summary),
      status: `${playerKey(player)}#${summary.status}`,
      version: summary.version,
      game: summary,
    },
    {
      ConditionExpression: `attribute_not_exists(pk) OR version ${newerThan(replace)} :version`,
      ExpressionAttributeValues: { ':version': summary.version },
    },
  );
}

/**
 * What a player's record needs of each of their games (the domain's GameRecord), from their rows
 * read strongly consistent: a quarter of each row, so a player's rows read quickly.
 */
export async function recordsOf(player: string): Promise<GameRecord[]> {
  const records: GameRecord[] = [];
  for await (const item of queryItems({
    TableName: readTableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :game)',
    ExpressionAttributeValues: { ':pk': playerKey(player), ':game': 'game#' },
    ProjectionExpression:
      'game.id, game.#status, game.createdAt, game.updatedAt, game.moves, game.score.vegas, game.daily',
    ExpressionAttributeNames: { '#status': 'status' },
    ConsistentRead: true,
  })) {
    const game = item.game as GameSummary;
    records.push({
      id: game.id,
      status: game.status,
      createdAt: game.createdAt,
      ...(game.status === 'playing' ? {} : { endedAt: game.updatedAt }),
      moves: game.moves,
      vegas: game.score.vegas,
      daily: game.daily,
    });
  }
  return records;
}

/** A page of a player's games, newest first; `after` is the row key the last page ended at (`last`). */
export async function pageOfGames(
  player: string,
  options: {
    readonly status?: GameStatus | undefined;
    readonly limit: number;
    readonly after?: string | undefined;
  },
): Promise<{ games: GameSummary[]; last?: string }> {
  const { status, limit, after } = options;
  const pk = playerKey(player);
  const page = await queryPage({
    TableName: readTableName(),
    ...(status === undefined
      ? {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :game)',
          ExpressionAttributeValues: { ':pk': pk, ':game': 'game#' },
          ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
        }
      : {
          IndexName: BY_STATUS.indexName,
          KeyConditionExpression: '#status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': `${pk}#${status}` },
          ...(after ? { ExclusiveStartKey: { pk, sk: after, status: `${pk}#${status}` } } : {}),
        }),
    ScanIndexForward: false,
    // One more than asked: a last page then says so (no cursor to an empty page).
    Limit: limit + 1,
  });
  const { items } = page;
  const games = items.slice(0, limit).map((item) => item.game as GameSummary);
  return items.length > limit ? { games, last: items[limit - 1]!.sk as string } : { games };
}

/**
 * Saves a player's statistics computed from `facts` facts (games dealt, games ended), unless the
 * table holds figures from as many facts or more: facts only grow, so the figures with the most are
 * the newest, whatever order the projector's calls finish in.
 */
export function saveStats(
  player: string,
  stats: PlayerStats,
  facts: number,
  replace: Replace = 'newer',
): Promise<boolean> {
  return putIf(
    readTableName(),
    { pk: playerKey(player), sk: 'stats', facts, stats },
    {
      ConditionExpression: `attribute_not_exists(pk) OR facts ${newerThan(replace)} :facts`,
      ExpressionAttributeValues: { ':facts': facts },
    },
  );
}

/** A player's statistics, one read; undefined before their first game is projected. */
export async function statsOf(player: string): Promise<PlayerStats | undefined> {
  const result = await storeCall((client, abortSignal) =>
    client.send(new GetCommand({ TableName: readTableName(), Key: { pk: playerKey(player), sk: 'stats' } }), {
      abortSignal,
    }),
  );
  return result?.Item?.stats as PlayerStats | undefined;
}

/** The key of every read model (a Scan of the projector's table: rebuilds only). */
export async function readModelKeys(): Promise<ReadKey[]> {
  const keys: ReadKey[] = [];
  for await (const item of scanItems({
    TableName: readTableName(),
    ProjectionExpression: '#pk, #sk',
    ExpressionAttributeNames: { '#pk': READ_KEYS.partitionKey, '#sk': READ_KEYS.sortKey },
  })) {
    keys.push({ pk: item[READ_KEYS.partitionKey] as string, sk: item[READ_KEYS.sortKey] as string });
  }
  return keys;
}

/** Deletes these read models (the projector's table only: the log is never touched); how many went. */
export async function deleteReadModels(keys: readonly ReadKey[]): Promise<number> {
  const TableName = readTableName();
  let deleted = 0;
  for (let i = 0; i < keys.length; i += 25) {
    let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    while (requests.length > 0) {
      const answer = await storeCall((client, abortSignal) =>
        client.send(new BatchWriteCommand({ RequestItems: { [TableName]: requests } }), { abortSignal }),
      );
      const left = (answer.UnprocessedItems?.[TableName] ?? []) as typeof requests;
      deleted += requests.length - left.length;
      requests = left;
    }
  }
  return deleted;
}
