import { createHash } from 'node:crypto';
import type { DailyResult, GameStatus } from '../../domain/index.js';
import { newerThan, type ReadKey, type Replace, readTableName } from './readModels.js';
import { getByKey, putIf, queryItems, queryPage, queryPages } from './table.js';

/**
 * The daily deal's read models (docs/api.md), in the read-model table beside the players'
 * rows, built by the projector from the log and rebuilt with them. A day's leaderboard is the
 * service's hottest key, so no item is written by every finisher of a day:
 *
 * - **An attempt** (`pk = daily#<day>#<shard>`, `sk = player#<sub>`): one player's game on the day,
 *   its standing (`attempt`), and once won the leaderboard's keys: `board = daily#<day>` and
 *   `rank = <actions>#<elapsedMs>#<finishedAt>#<hash of the game id>` (fixed widths), so the sparse index
 *   `byRank` lists a day's winners in ranking order and a page of the leaderboard is one Query.
 *   Each finisher writes only their own attempt. The shard (DAILY_SHARDS of them, from the sub's
 *   hash) spreads the attempts of a day over as many partitions.
 * - **A shard's counts** (`pk = daily#<day>#counts`, `sk = <shard>`): how many attempts the shard
 *   holds and how many are won on their day (ranked), recounted from the shard (a strongly consistent Query) whenever an
 *   attempt starts or ends, and kept only if no smaller than what is there (counts only grow, so
 *   the largest recount is the newest). `GET /daily` sums the shards: one Query of DAILY_SHARDS
 *   small items. A recount is exact however often or late records come: it counts, it never adds.
 */
export const DAILY_SHARDS = 32;
export const BY_RANK = { indexName: 'byRank', partitionKey: 'board', sortKey: 'rank' } as const;

export interface AttemptRow extends DailyResult {
  readonly day: string;
  readonly player: string;
  readonly gameId: string;
  readonly status: GameStatus;
  readonly version: number;
  /** The name the leaderboard shows (chosen, or derived from the sub): never the sub itself. */
  readonly name: string;
  /** When that name was chosen ('0' for a derived one): a later name replaces it at the same version. */
  readonly nameAt: string;
  /** When the game's first action was appended, once it has one (what `elapsedMs` counts from). */
  readonly firstActionAt?: string;
}

const pad = (shard: number) => String(shard).padStart(2, '0');
export const shardOf = (player: string): number =>
  createHash('sha256').update(player, 'utf8').digest().readUInt32BE(0) % DAILY_SHARDS;
const board = (day: string) => `daily#${day}`;
const countsPk = (day: string) => `daily#${day}#counts`;
export const attemptKey = (day: string, player: string): ReadKey => ({
  pk: `daily#${day}#${pad(shardOf(player))}`,
  sk: `player#${player}`,
});
export const countsKey = (day: string, shard: number): ReadKey => ({ pk: countsPk(day), sk: pad(shard) });
/** The index's sort key: the ranking, then a hash of the game id (ties in a fixed order that shows no game id). */
const rankOf = (row: AttemptRow, rankKey: string) =>
  `${rankKey}#${createHash('sha256').update(row.gameId, 'utf8').digest('base64url').slice(0, 16)}`;

const attemptItem = (row: AttemptRow, rankKey: string | undefined, counted: GameStatus | undefined) => ({
  ...attemptKey(row.day, row.player),
  version: row.version,
  nameAt: row.nameAt,
  attempt: row,
  ...(counted ? { counted } : {}),
  ...(rankKey === undefined ? {} : { board: board(row.day), rank: rankOf(row, rankKey) }),
});

/** A player's attempt on a day as the read models hold it, and the status its shard was last counted at. */
export async function attemptRow(
  day: string,
  player: string,
): Promise<(AttemptRow & { readonly counted?: GameStatus }) | undefined> {
  const item = await getByKey(readTableName(), attemptKey(day, player));
  return (
    item && {
      ...(item.attempt as AttemptRow),
      ...(item.counted ? { counted: item.counted as GameStatus } : {}),
    }
  );
}

/**
 * Saves an attempt unless the table holds a later version, or the same version under a later name
 * (or the very same, for the projector). `counted` is the status its shard was counted at, if it is.
 */
export function saveAttempt(
  row: AttemptRow,
  options: {
    readonly rankKey?: string | undefined;
    readonly counted?: GameStatus | undefined;
    readonly replace?: Replace;
  },
): Promise<boolean> {
  const { rankKey, counted, replace = 'newer' } = options;
  return putIf(readTableName(), attemptItem(row, rankKey, counted), {
    ConditionExpression: `attribute_not_exists(pk) OR version < :version OR (version = :version AND nameAt ${newerThan(replace)} :nameAt)`,
    ExpressionAttributeValues: { ':version': row.version, ':nameAt': row.nameAt },
  });
}

/** Marks an attempt's shard as counted with the attempt as it is (unless it moved on since). */
export function markCounted(row: AttemptRow, rankKey: string | undefined): Promise<boolean> {
  return putIf(readTableName(), attemptItem(row, rankKey, row.status), {
    ConditionExpression: 'version = :version AND nameAt = :nameAt',
    ExpressionAttributeValues: { ':version': row.version, ':nameAt': row.nameAt },
  });
}

/** Counts the shard's attempts and wins (strongly consistent) and keeps the counts unless larger ones stand. */
export async function recountShard(day: string, shard: number, replace: Replace = 'newer'): Promise<void> {
  let players = 0;
  let won = 0;
  for await (const page of queryPages({
    TableName: readTableName(),
    KeyConditionExpression: 'pk = :pk',
    // Won on their day: the attempts the leaderboard ranks (they carry its keys).
    FilterExpression: 'attribute_exists(#board)',
    ExpressionAttributeNames: { '#board': BY_RANK.partitionKey },
    ExpressionAttributeValues: { ':pk': `daily#${day}#${pad(shard)}` },
    Select: 'COUNT',
    ConsistentRead: true,
  })) {
    players += page.ScannedCount ?? 0;
    won += page.Count ?? 0;
  }
  const than = newerThan(replace);
  await putIf(
    readTableName(),
    { ...countsKey(day, shard), players, won },
    {
      ConditionExpression: `attribute_not_exists(pk) OR players ${than} :players OR won ${than} :won`,
      ExpressionAttributeValues: { ':players': players, ':won': won },
    },
  );
}

/**
 * A day's counts as an answer that also shows `seen` gives them: at least as many wins as it ranks
 * (a rank, or a page's entries so far), and at least as many players as wins and as attempts it
 * shows. An attempt is saved before its shard is recounted, so for a moment the counts can leave
 * out the one the same answer shows ("rank 1 of 0").
 */
export function countsShowing(
  counts: { players: number; won: number },
  seen: { players?: number; won?: number },
): { players: number; won: number } {
  const won = Math.max(counts.won, seen.won ?? 0);
  return { players: Math.max(counts.players, won, seen.players ?? 0), won };
}

/** A day's attempts so far and how many are won: the sum of its shards' counts. */
export async function dayCounts(day: string): Promise<{ players: number; won: number }> {
  const counts = { players: 0, won: 0 };
  for await (const item of queryItems({
    TableName: readTableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': countsPk(day) },
  })) {
    counts.players += item.players as number;
    counts.won += item.won as number;
  }
  return counts;
}

/**
 * A page of a day's winners in ranking order (one Query of the index), after the entry whose index
 * key is `after`; `last` is the key to start the next page after. The key holds the ranking and a
 * hash of the game id, nothing secret, so a cursor made of it shows nobody's game or sub.
 */
export async function leaderboardPage(
  day: string,
  options: { readonly limit: number; readonly after?: string | undefined },
): Promise<{ rows: (AttemptRow & { readonly rankKey: string })[]; last?: string }> {
  const { items } = await queryPage({
    TableName: readTableName(),
    IndexName: BY_RANK.indexName,
    KeyConditionExpression:
      options.after === undefined ? '#board = :board' : '#board = :board AND #rank > :after',
    ExpressionAttributeNames: {
      '#board': BY_RANK.partitionKey,
      ...(options.after === undefined ? {} : { '#rank': BY_RANK.sortKey }),
    },
    ExpressionAttributeValues: {
      ':board': board(day),
      ...(options.after === undefined ? {} : { ':after': options.after }),
    },
    // One more than asked: a last page then says so (no cursor to an empty page).
    Limit: options.limit + 1,
  });
  const rankKeyOf = (rank: string) => rank.slice(0, rank.lastIndexOf('#'));
  const rows = items
    .slice(0, options.limit)
    .map((item) => ({ ...(item.attempt as AttemptRow), rankKey: rankKeyOf(item.rank as string) }));
  return items.length > options.limit ? { rows, last: items[options.limit - 1]!.rank as string } : { rows };
}

/** How many of a day's winners rank strictly before `rankKey` (a Query of the index that counts). */
export async function winnersBefore(day: string, rankKey: string): Promise<number> {
  let before = 0;
  for await (const page of queryPages({
    TableName: readTableName(),
    IndexName: BY_RANK.indexName,
    // Entries with the same ranking sort after `<rankKey>#` (a hash of their game id follows it).
    KeyConditionExpression: '#board = :board AND #rank < :rank',
    ExpressionAttributeNames: { '#board': BY_RANK.partitionKey, '#rank': BY_RANK.sortKey },
    ExpressionAttributeValues: { ':board': board(day), ':rank': `${rankKey}#` },
    Select: 'COUNT',
  })) {
    before += page.Count ?? 0;
  }
  return before;
}
