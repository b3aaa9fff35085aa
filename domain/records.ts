import { nextDay, previousDay, wonOnItsDay } from './daily.js';
import type { GameStatus } from './game.js';

/** What a player's record needs of one of their games. */
export interface GameRecord {
  readonly id: string;
  readonly status: GameStatus;
  readonly createdAt: string;
  /** When a finished game ended (its last event). */
  readonly endedAt?: string | undefined;
  readonly moves: number;
  readonly vegas: number;
  /** For a game on a daily deal: its UTC day. */
  readonly daily?: string | undefined;
}

/**
 * A player's daily figures as stored: what does not depend on the day it is read. The current
 * streak does (a streak that ended yesterday is still current today until today's attempt is lost),
 * so it is derived when read, by `dailyFigures`.
 */
export interface DailyRecord {
  readonly played: number;
  readonly won: number;
  readonly bestStreak: number;
  /** The last day with a daily win, and the run of consecutive days with a win that ends on it. */
  readonly lastWin: { readonly day: string; readonly run: number } | null;
  /** The last day whose daily game was resigned. */
  readonly lastLoss: string | null;
}

/** `GET /me/stats`'s `daily`: a streak counts consecutive UTC days with a daily win. */
export interface DailyFigures {
  readonly played: number;
  readonly won: number;
  readonly currentStreak: number;
  readonly bestStreak: number;
}

/** A player's statistics (docs/api.md), derived from their games alone. */
export interface PlayerStats {
  readonly started: number;
  readonly won: number;
  readonly resigned: number;
  readonly inPlay: number;
  /** won / (won + resigned); null before any game ends. */
  readonly winRate: number | null;
  /** Wins in a row at the end of the finished games, in the order they ended. */
  readonly currentStreak: number;
  readonly bestStreak: number;
  /** The highest Vegas score of a finished game. */
  readonly bestVegas: number | null;
  /** The fewest moves of a won game. */
  readonly fewestMovesToWin: number | null;
  /** The time of the latest event these figures include (a deal or an ending); null for none. */
  readonly asOf: string | null;
  readonly daily: DailyRecord;
}

/** A player's daily games' figures from their games (one game a day at most). */
function dailyRecord(games: readonly GameRecord[]): DailyRecord {
  const daily = games.filter((game) => game.daily !== undefined);
  // A daily win is the day's deal won on its day (a game finished after midnight is not ranked either).
  const wins = daily
    .filter((game) => game.status === 'won' && wonOnItsDay(game.daily!, { finishedAt: game.endedAt }))
    .map((game) => game.daily!)
    .sort();
  let bestStreak = 0;
  let run = 0;
  for (const [i, day] of wins.entries()) {
    run = i > 0 && nextDay(wins[i - 1]!) === day ? run + 1 : 1;
    bestStreak = Math.max(bestStreak, run);
  }
  const losses = daily
    .filter((game) => game.status === 'resigned')
    .map((game) => game.daily!)
    .sort();
  return {
    played: daily.length,
    won: wins.length,
    bestStreak,
    lastWin: wins.length === 0 ? null : { day: wins.at(-1)!, run },
    lastLoss: losses.at(-1) ?? null,
  };
}

/**
 * The daily figures on `today`: the current streak is the run that ends today, or yesterday while
 * today's daily deal is not lost (not played yet, or in play).
 */
export function dailyFigures(record: DailyRecord, today: string): DailyFigures {
  const { lastWin } = record;
  const current =
    lastWin !== null &&
    (lastWin.day === today || (lastWin.day === previousDay(today) && record.lastLoss !== today))
      ? lastWin.run
      : 0;
  return { played: record.played, won: record.won, currentStreak: current, bestStreak: record.bestStreak };
}

const latest = (a: string | null, b: string | undefined) =>
  b !== undefined && (a === null || b > a) ? b : a;

/**
 * A player's statistics from their games, in any order: the same games always give the same
 * figures, so a projection that sees them late, twice or out of order still agrees with a rebuild.
 */
export function playerStats(games: readonly GameRecord[]): PlayerStats {
  const finished = games
    .filter((game) => game.status !== 'playing')
    .sort((a, b) => (a.endedAt! < b.endedAt! ? -1 : a.endedAt! > b.endedAt! ? 1 : a.id < b.id ? -1 : 1));
  let run = 0;
  let bestStreak = 0;
  for (const game of finished) {
    run = game.status === 'won' ? run + 1 : 0;
    bestStreak = Math.max(bestStreak, run);
  }
  const won = finished.filter((game) => game.status === 'won');
  const resigned = finished.length - won.length;
  let asOf: string | null = null;
  for (const game of games) asOf = latest(latest(asOf, game.createdAt), game.endedAt);
  return {
    started: games.length,
    won: won.length,
    resigned,
    inPlay: games.length - finished.length,
    winRate: finished.length === 0 ? null : won.length / finished.length,
    currentStreak: run,
    bestStreak,
    bestVegas: finished.length === 0 ? null : Math.max(...finished.map((game) => game.vegas)),
    fewestMovesToWin: won.length === 0 ? null : Math.min(...won.map((game) => game.moves)),
    asOf,
    daily: dailyRecord(games),
  };
}
