import type { Card } from '../cards.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { deckFromSeed, MAX_SEED } from '../shuffle.js';
import { type SolveBudget, solve } from './solve.js';

export interface WinnableDeal {
  readonly seed: number;
  readonly deck: Card[];
  /** A line that wins the deal. */
  readonly line: PlayedMove[];
  /** Seeds tried, this one included. */
  readonly attempts: number;
}

/**
 * The first seed from `startSeed` on (wrapping after 2^32 - 1) whose deal the solver proves won within
 * `budget` per deal, trying at most `maxAttempts` seeds; null if none of them.
 */
export function winnableSeed(
  startSeed: number,
  rules: Rules,
  budget: SolveBudget = { nodes: 200_000 },
  maxAttempts = 50,
): WinnableDeal | null {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const seed = (startSeed + attempt) % (MAX_SEED + 1);
    const deck = deckFromSeed(seed);
    const solved = solve(deck, rules, budget);
    if (solved.result === 'won') return { seed, deck, line: solved.line, attempts: attempt + 1 };
    if (budget.now !== undefined && budget.deadline !== undefined && budget.now() >= budget.deadline) break;
  }
  return null;
}
