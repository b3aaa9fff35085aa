import { type GameState, movesMade } from './game.js';

/**
 * The daily deal's calendar and ranking (docs/api.md). Days are UTC days, written
 * `YYYY-MM-DD`; times are ISO strings or epoch milliseconds, given by the caller.
 */

const DAY_MS = 86_400_000;

/** The UTC day of a moment. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whether `text` is a real UTC day written `YYYY-MM-DD` (2026-02-30 is not). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  return Number.isFinite(ms) && dayOf(ms) === text;
}

/** When a day begins (00:00 UTC), in epoch milliseconds. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

export const nextDay = (day: string): string => dayOf(dayStart(day) + DAY_MS);
export const previousDay = (day: string): string => dayOf(dayStart(day) - DAY_MS);

/** Whether a day is over at `nowMs`: its games' deal and lines may be shown from then on. */
export const dayIsOver = (day: string, nowMs: number): boolean => nowMs >= dayStart(day) + DAY_MS;

/** A daily game's standing, as the leaderboard and `GET /daily` show it. */
export interface DailyResult {
  /** Every action after the deal, undo and redo too: the game's version. */
  readonly actions: number;
  /** Moves in effect, as the view counts them. */
  readonly moves: number;
  /** From the game's first action to its last one (its winning one, once won), by the log's times; 0 before any. */
  readonly elapsedMs: number;
  /** When the game was won (its last event); none before. */
  readonly finishedAt?: string;
}

/** A daily game's result from its state and the times of its first action and last event. */
export function dailyResult(
  state: GameState,
  firstActionAt: string | undefined,
  lastAt: string,
): DailyResult {
  const elapsedMs =
    firstActionAt === undefined ? 0 : Math.max(0, Date.parse(lastAt) - Date.parse(firstActionAt));
  return {
    actions: state.version,
    moves: movesMade(state),
    elapsedMs,
    ...(state.status === 'won' ? { finishedAt: lastAt } : {}),
  };
}

/**
 * Whether a daily game's result counts on its day's leaderboard: won while its day lasted. A game
 * left in play past midnight can be finished, but not ranked: from then on the day's deal and lines
 * through it are public.
 */
export const wonOnItsDay = (day: string, result: Pick<DailyResult, 'finishedAt'>): boolean =>
  result.finishedAt !== undefined && !dayIsOver(day, Date.parse(result.finishedAt));

/**
 * The ranking as one string that sorts as the leaderboard does: fewest actions, then the shortest
 * time, then the earliest finish. Equal strings share a rank. Fixed widths: actions are at most
 * MAX_ACTIONS (5 digits), a time at most a few days (13 digits of milliseconds is 300 years).
 */
export const rankKey = (
  result: Required<Pick<DailyResult, 'actions' | 'elapsedMs' | 'finishedAt'>>,
): string =>
  `${String(result.actions).padStart(5, '0')}#${String(result.elapsedMs).padStart(13, '0')}#${result.finishedAt}`;

/**
 * Ranks in order, shared on ties (standard competition ranking: 1, 2, 2, 4): the rank of the entry
 * at `position` (1 for the first) with `key`, after one with `previous` at `previousRank`.
 */
export const rankAt = (
  position: number,
  key: string,
  previous?: { readonly key: string; readonly rank: number },
): number => (previous && previous.key === key ? previous.rank : position);
