import { type GameRecord, movesMade, playerStats } from '../../domain/index.js';
import { type Loaded, loadGame } from '../store/events.js';
import {
  factsOf,
  type GameFacts,
  type GameSummary,
  type Replace,
  saveStats,
  saveSummary,
} from '../store/readModels.js';

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
  };
}

const recordOf = (summary: GameFacts): GameRecord => ({
  id: summary.id,
  status: summary.status,
  createdAt: summary.createdAt,
  ...(summary.status === 'playing' ? {} : { endedAt: summary.updatedAt }),
  moves: summary.moves,
  vegas: summary.score.vegas,
});

/** A player's statistics from all their rows (a strongly consistent read), saved. */
export async function recomputeStats(player: string, replace: Replace = 'newer'): Promise<void> {
  const records = (await factsOf(player)).map(recordOf);
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
 * Brings a game's row up to its log (one bounded load, whatever record woke the projector), and
 * names its player when their statistics may have changed: when the game was dealt (`dealt`, a
 * record of version 0 seen) or is over; the caller refreshes those once a batch. Anonymous games
 * have no read models. Running it again, or for an older record, changes nothing.
 */
export async function projectGame(id: string, dealt: boolean): Promise<string | undefined> {
  const row = await projectRow(id);
  return row && (dealt || row.summary.status !== 'playing') ? row.player : undefined;
}

/** A game's row brought up to its log; its player and summary (none for an anonymous game). */
export async function projectRow(
  id: string,
  replace: Replace = 'newer',
): Promise<{ player: string; summary: GameSummary } | undefined> {
  const loaded = await loadGame(id);
  if (!loaded?.owner) return undefined;
  const summary = summarize(id, loaded);
  await saveSummary(loaded.owner, summary, replace);
  return { player: loaded.owner, summary };
}
