import { attemptKey, countsKey, recountShard, shardOf } from '../store/dailyModels.js';
import { ownedGames } from '../store/events.js';
import { deleteReadModels, type ReadKey, readModelKeys, rowKeyOf, statsKeyOf } from '../store/readModels.js';
import { projectRow, rebuildAttempt, recomputeStats } from './project.js';

export interface Rebuilt {
  /** Read models that no game of the log gave any more, deleted. */
  readonly deleted: number;
  readonly games: number;
  readonly players: number;
}

/**
 * Builds every read model again from the log alone, in place: every signed-in player's game, found
 * by its deal in a scan of the event table, is projected as the projector does it (so a rebuild and
 * the stream agree by construction); the rows the table held before and no game of the log gave are
 * deleted; then each player's statistics are computed from their rows, and each day's shard counts
 * from its attempts, and the statistics and counts no game gives are deleted. Readers see the figures before or
 * after, never an empty table, and the projector goes on meanwhile: a rebuild replaces a row or
 * statistics item that is as new as the log, never a newer one.
 */
async function rebuild(): Promise<Rebuilt> {
  const before = await readModelKeys();
  const rebuilt = new Set<string>();
  const keyOf = (key: ReadKey) => `${key.pk}\n${key.sk}`;
  const players = new Set<string>();
  const shards = new Map<string, { day: string; shard: number }>();
  let games = 0;
  for await (const id of ownedGames()) {
    const row = await projectRow(id, 'as-new');
    games++;
    if (!row) continue;
    players.add(row.player);
    rebuilt.add(keyOf(rowKeyOf(row.player, row.summary)));
    if (!row.loaded.state.deal.daily) continue;
    const { day, player } = await rebuildAttempt(id, row.loaded);
    rebuilt.add(keyOf(attemptKey(day, player)));
    const shard = shardOf(player);
    shards.set(keyOf(countsKey(day, shard)), { day, shard });
  }
  // Figures computed from other read models: the rows and attempts they read must be final first.
  const derived = (key: ReadKey) => key.sk === statsKeyOf('').sk || key.pk.endsWith('#counts');
  const stray = (figures: boolean) =>
    before.filter((key) => derived(key) === figures && !rebuilt.has(keyOf(key)));
  let deleted = await deleteReadModels(stray(false));
  for (const player of players) {
    await recomputeStats(player, 'as-new');
    rebuilt.add(keyOf(statsKeyOf(player)));
  }
  for (const [key, { day, shard }] of shards) {
    await recountShard(day, shard, 'as-new');
    rebuilt.add(key);
  }
  deleted += await deleteReadModels(stray(true));
  return { deleted, games, players: players.size };
}

let running: Promise<Rebuilt> | undefined;

/** Rebuilds the read models from the log; a call while a rebuild runs in this process shares it. */
export function rebuildReadModels(): Promise<Rebuilt> {
  running ??= rebuild().finally(() => {
    running = undefined;
  });
  return running;
}
