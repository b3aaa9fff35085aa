import type { Card } from '../cards.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { type SolveBudget, solve } from './solve.js';

export interface WinnableDeal {
  readonly deck: readonly Card[];
  /** A line that wins the deal. */
  readonly line: PlayedMove[];
  /** Deals tried, this one included. */
  readonly attempts: number;
}

/**
 * The first deal from `nextDeck` that the solver proves won within `perDeal` nodes, trying until the
 * budget's deadline passes or `maxAttempts` deals were tried; null if none was proved. The domain has
 * no randomness of its own: the caller's `nextDeck` draws the deals (from a cryptographic source in
 * the service, so that nobody can guess a dealt game's face-down cards from its face-up ones).
 */
export function winnableDeal(
  nextDeck: () => readonly Card[],
  rules: Rules,
  budget: SolveBudget & { readonly perDeal?: number; readonly maxAttempts?: number } = {},
): WinnableDeal | null {
  const { now, deadline, perDeal = 200_000, maxAttempts = Number.POSITIVE_INFINITY } = budget;
  const timed = now !== undefined && deadline !== undefined;
  const attempts = timed ? maxAttempts : Math.min(maxAttempts, 50);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const deck = nextDeck();
    const solved = solve(deck, rules, { nodes: perDeal, ...(timed ? { now, deadline } : {}) });
    if (solved.result === 'won') return { deck, line: solved.line, attempts: attempt };
    if (timed && now() >= deadline) break;
  }
  return null;
}
