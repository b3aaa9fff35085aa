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

/** Solves a deal (all 52 cards known) under `rules`. */
export function solve(deck: readonly Card[], rules: Rules, budget: SolveBudget = {}): SolveResult {
  return solveBoard(layOut(deck), rules, budget);
}

/**
 * Solves any board with every card known, by depth-first search over macro-moves with a table of
 * positions already searched.
 *
 * - `won`: the line (draws, recycles, moves) wins when played from `board`.
 * - `lost`: every position reachable was searched. The only moves ever left out are ones proved
 *   never to matter: safe moves to the foundations are played alone, positions equal up to the order
 *   of the columns, or up to which of two twins (same rank and colour) holds which run, are searched
 *   once (`key.ts`), a position is not searched when one searched before can do all it can
 *   (same cards in the same places, a waste it reaches by drawing, no fewer passes left) or when some
 *   card in it can never leave its place (`dead-ends.ts`), a card taken back from its foundation is
 *   followed only by the moves that make it worth it (`obligations.ts`) and taken back only when such a
 *   move could follow, a card that could go onto either of two twins goes onto one, and of two moves
 *   that commute only one order is tried (`commuting.ts`).
 * - `unknown`: the budget ran out first.
 *
 * For tests: `prune: false` keeps only the safe moves of cards never needed again and the table of
 * positions (same waste, same or earlier pass), and leaves out the rest: other waste sizes, dead
 * ends, obligations, twins and commuting moves (slower; the pruned search is checked
 * against it). `quick: false` skips the quick look, so that a win, too, must come from the complete
 * search.
 */
export function solveBoard(
  board: Board,
  rules: Rules,
  budget: SolveBudget = {},
  { prune = true, quick: look = true }: { readonly prune?: boolean; readonly quick?: boolean } = {},
): SolveResult {
  const maxNodes = budget.nodes ?? DEFAULT_NODES;
  if (!look) return depthFirst(board, rules, { ...budget, nodes: maxNodes }, false, prune, MIN_LOG2_START);
  // First a quick look along the moves that usually matter, which finds most wins; then, if it
  // finds none, the complete search, which alone can prove a deal lost.
  const { now, deadline } = budget;
  const quickDeadline =
    now !== undefined && deadline !== undefined ? now() + QUICK_SHARE * (deadline - now()) : undefined;
  const quickNodes = Math.floor(maxNodes * QUICK_SHARE);
  const quick = depthFirst(
    board,
    rules,
    {
      ...budget,
      nodes: quickNodes,
      ...(quickDeadline === undefined ? {} : { deadline: quickDeadline }),
    },
    true,
    prune,
    startingSize(quickNodes),
  );
  if (quick.result === 'won') return quick;
  // The complete search meets at least the positions the quick look did: its table starts that big.
  const log2Capacity = Math.min(
    MAX_LOG2_START,
    Math.max(startingSize(maxNodes - quick.stats.nodes), Math.ceil(Math.log2(2 * quick.stats.positions + 1))),
  );
  const full = depthFirst(
    board,
    rules,
    { ...budget, nodes: maxNodes - quick.stats.nodes },
    false,
    prune,
    log2Capacity,
  );
  const stats = { nodes: quick.stats.nodes + full.stats.nodes, positions: full.stats.positions };
  return { ...full, stats };
}

/**
 * The share of the budget (nodes, and time when there is a clock) the quick search may use. On a lost
 * deal it is time the complete search does not have: at 1 s a deal (seeds 0..999, draw 3, 3 passes)
 * a share of 0.5 left 19 deals undecided, 0.2 left 11, and 0.1 left the same 11.
 */
const QUICK_SHARE = 0.2;

/** The table's first size (log2 of its slots): 2^16 slots take 1.3 MB, 2^22 take 84 MB. */
const MIN_LOG2_START = 16;
const MAX_LOG2_START = 22;
/**
 * A search of few nodes records few positions: its table starts small (it grows when it must), so
 * that the many short solves of a hint do not each clear megabytes they never use.
 */
const startingSize = (nodes: number): number =>
  Math.max(10, Math.min(MIN_LOG2_START, Math.ceil(Math.log2(nodes + 1)) + 1));
