import { type Board, layOut } from '../board.js';
import type { Card } from '../cards.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { depthFirst } from './search.js';

/**
 * How much work a solve may do. The domain has no clock: a caller that wants a time limit passes one
 * in (`now` and a `deadline` in the same units), and it is read every `CLOCK_EVERY` positions.
 */
export interface SolveBudget {
  /** Moves to try at most (default 2,000,000). */
  readonly nodes?: number;
  readonly now?: () => number;
  readonly deadline?: number;
}

export interface SolveStats {
  /** Moves tried. */
  readonly nodes: number;
  /** Distinct positions recorded. */
  readonly positions: number;
}

export type SolveResult =
  | { readonly result: 'won'; readonly line: PlayedMove[]; readonly stats: SolveStats }
  | { readonly result: 'lost'; readonly stats: SolveStats }
  | { readonly result: 'unknown'; readonly stats: SolveStats };

export const DEFAULT_NODES = 2_000_000;

export interface SolveOptions {
  /** False for tests: the search without the prunings (see `solveBoard`). */
  readonly prune?: boolean;
  /**
   * False for one search alone, in the first order (`depthFirst`): the hints' many small solves,
   * whose weighing of choices was measured that way.
   */
  readonly secondSearch?: boolean;
}

/** Solves a deal (all 52 cards known) under `rules`. */
export function solve(deck: readonly Card[], rules: Rules, budget: SolveBudget = {}): SolveResult {
  return solveBoard(layOut(deck), rules, budget);
}

/**
 * Solves any board with every card known, by two depth-first searches over macro-moves taking turns,
 * each with a table of the positions it has searched: the second tries the talon's cards first
 * (`depthFirst` in `search.ts`).
 *
 * - `won`: the line (draws, recycles, moves) wins when played from `board`.
 * - `lost`: every position reachable was searched. The only moves ever left out are ones proved
 *   never to matter: safe moves to the foundations are played alone, positions equal up to the order
 *   of the columns, or up to which of two twins (same rank and colour) holds which run, are searched
 *   once (`key.ts`), a position is not searched when one searched before can do all it can
 *   (same cards in the same places, a waste it reaches by drawing, no fewer passes left; or, when
 *   cards may come back, the same with a top card that could go home at home) or when some
 *   card in it can never leave its place (`dead-ends.ts`), a card taken back from its foundation is
 *   followed only by the moves that make it worth it (`obligations.ts`) and taken back only when such a
 *   move could follow, a card that could go onto either of two twins goes onto one, and of two moves
 *   that commute only one order is tried (`commuting.ts`).
 * - `unknown`: the budget ran out first.
 *
 * For tests: `prune: false` keeps only the safe moves of cards never needed again and the table of
 * positions (same waste, same or earlier pass), and leaves out the rest: other waste sizes, dead
 * ends, obligations, twins and commuting moves (slower; the pruned search is checked against it).
 */
export function solveBoard(
  board: Board,
  rules: Rules,
  budget: SolveBudget = {},
  { prune = true, secondSearch = true }: SolveOptions = {},
): SolveResult {
  const nodes = budget.nodes ?? DEFAULT_NODES;
  return depthFirst(board, rules, { ...budget, nodes }, prune, secondSearch, startingSize(nodes));
}

/** The table's first size (log2 of its slots) at most: 2^16 slots take 1.3 MB. */
const MAX_LOG2_START = 16;
/**
 * A search of few nodes records few positions: its table starts small (it grows when it must), so
 * that the many short solves of a hint do not each clear megabytes they never use.
 */
const startingSize = (nodes: number): number =>
  Math.max(10, Math.min(MAX_LOG2_START, Math.ceil(Math.log2(nodes + 1)) + 1));
