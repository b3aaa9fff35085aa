import type { SolveBudget } from '../domain/index.js';

/**
 * Time budgets for the solver inside a Lambda call (the functions time out at 10 s): the solver
 * reads the clock every thousand positions and stops at the deadline.
 */
export const SOLVER_MS = { autocomplete: 2_500, winnableDeal: 2_500, hint: 2_000, analysis: 2_500 } as const;

export const deadline = (ms: number): SolveBudget => ({
  now: () => performance.now(),
  deadline: performance.now() + ms,
});

/** Positions the winnable search spends on one deal before it draws another. */
export const WINNABLE_NODES_PER_DEAL = 200_000;
