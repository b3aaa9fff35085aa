import { dailyResult, movesMade, playerStats, rankKey, wonOnItsDay } from '../../domain/index.js';
import { displayName } from '../players.js';
import { chosenName } from '../store/daily.js';
import {
  type AttemptRow,
  attemptRow,
  markCounted,
  recountShard,
  saveAttempt,
  shardOf,
} from '../store/dailyModels.js';
import { firstActionAt, type Loaded, loadGame } from '../store/events.js';
import { type GameSummary, type Replace, recordsOf, saveStats, saveSummary } from '../store/readModels.js';

/** A game's row in its player's list: what the view shows of it, nothing hidden while in play. */
export function summarize(id: string, loaded: Loaded): GameSummary {
  const { state } = loaded;
  return {
    id,
    status: state.status,
    rules: state.deal.rules,
    createdAt: loaded.createdAt,
    updatedAt: loaded.updatedAt,
    version: state.version,
    moves: movesMade(state),
    score: state.score,
    ...(state.status === 'playing' ? {} : { seed: state.deal.seed }),
    ...(state.deal.daily ? { daily: state.deal.daily } : {}),
  };
}

/** A player's statistics from all their rows (a strongly consistent read), saved. */
export async function recomputeStats(player: string, replace: Replace = 'newer'): Promise<void> {
  const records = await recordsOf(player);
  const facts = records.length + records.filter((record) => record.endedAt !== undefined).length;
  await saveStats(player, playerStats(records), facts, replace);
}

const refreshing = new Map<string, { again: boolean; done: Promise<void> }>();

/**
 * Recomputes a player's statistics from all their rows (a strongly consistent read) and saves them.
 * Calls for a player while one runs in this process share it, and one more runs after it: every
 * caller waits for a recompute that started after its call, but a burst of a player's games costs
 * two reads of their rows, not one a game.
 */
export function refreshStats(player: string): Promise<void> {
  const running = refreshing.get(player);
  if (running) {
    running.again = true;
    return running.done;
  }
  const entry = { again: false, done: Promise.resolve() };
  entry.done = (async () => {
    try {
      do {
        entry.again = false;
        await recomputeStats(player);
      } while (entry.again);
    } finally {
      refreshing.delete(player);
    }
  })();
  refreshing.set(player, entry);
  return entry.done;
}

/**
 * Brings a game's read models up to its log (one bounded load, whatever record woke the projector):
 * its row, and for a daily game its attempt. Names its player when their statistics may have
 * changed: when the game was dealt (`dealt`, a record of version 0 seen) or is over; the caller
 * refreshes those once a batch. Anonymous games have no read models. Running it again, or for an
 * older record, changes nothing.
 */
export async function projectGame(id: string, dealt: boolean): Promise<string | undefined> {
  const row = await projectRow(id);
  if (row?.loaded.state.deal.daily) await projectAttempt(id, row.loaded);
  return row && (dealt || row.summary.status !== 'playing') ? row.player : undefined;
}

/** A game's row brought up to its log; its player, summary and state (none for an anonymous game). */
export async function projectRow(
  id: string,
  replace: Replace = 'newer',
): Promise<{ player: string; summary: GameSummary; loaded: Loaded } | undefined> {
  const loaded = await loadGame(id);
  if (!loaded?.owner) return undefined;
  const summary = summarize(id, loaded);
  await saveSummary(loaded.owner, summary, replace);
  return { player: loaded.owner, summary, loaded };
}

/**
 * A daily game's attempt as its log and its player's chosen name give it. The time of its first
 * action never changes once there is one: an attempt that holds it (`known`) spares its read.
 */
async function attemptOf(
  id: string,
  loaded: Loaded,
  known?: string,
): Promise<{ row: AttemptRow; rank?: string }> {
  const day = loaded.state.deal.daily!;
  const player = loaded.owner!;
  const [first, chosen] = await Promise.all([
    known ?? (loaded.state.version > 0 ? firstActionAt(id) : undefined),
    chosenName(player),
  ]);
  const result = dailyResult(loaded.state, first, loaded.updatedAt);
  const row: AttemptRow = {
    day,
    player,
    gameId: id,
    status: loaded.state.status,
    version: loaded.state.version,
    name: displayName(player, chosen?.name),
    nameAt: chosen?.at ?? '0',
    ...(first === undefined ? {} : { firstActionAt: first }),
    ...result,
  };
  return wonOnItsDay(day, result)
    ? { row, rank: rankKey({ ...result, finishedAt: result.finishedAt! }) }
    : { row };
}

/**
 * Brings a daily game's attempt up to its log, and its shard's counts when the attempt started or
 * ended since the shard was last counted: recounted, then the attempt marked as counted, so a
 * record seen again after a failure between the two counts again, and one seen again after both
 * does not.
 */
export async function projectAttempt(id: string, loaded: Loaded): Promise<void> {
  const before = await attemptRow(loaded.state.deal.daily!, loaded.owner!);
  const { row, rank } = await attemptOf(id, loaded, before?.firstActionAt);
  const counted = before?.status === row.status ? before.counted : undefined;
  if (!(await saveAttempt(row, { rankKey: rank, counted }))) return;
  if (counted === row.status) return;
  await recountShard(row.day, shardOf(row.player));
  await markCounted(row, rank);
}

/**
 * A daily game's attempt as a rebuild writes it: replacing one as new, marked as counted, for the
 * rebuild recounts every shard it touched once all attempts are written. Its key.
 */
export async function rebuildAttempt(id: string, loaded: Loaded): Promise<{ day: string; player: string }> {
  const { row, rank } = await attemptOf(id, loaded);
  await saveAttempt(row, { rankKey: rank, counted: row.status, replace: 'as-new' });
  return { day: row.day, player: row.player };
}

/** A player chose another name: every daily attempt of theirs shows it. */
export async function projectName(player: string): Promise<void> {
  for (const game of await recordsOf(player)) {
    if (game.daily === undefined) continue;
    const loaded = await loadGame(game.id);
    if (loaded) await projectAttempt(game.id, loaded);
  }
}
