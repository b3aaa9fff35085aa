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
}

/** A player's statistics (CONTRACT section 5), derived from their games alone. */
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
  };
}
