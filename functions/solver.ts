import type { SolveBudget } from '../domain/index.js';
import { busy, type Problem } from './http/problem.js';
import { timeLimit } from './timeScale.js';

/**
 * Time budgets for the solver inside a Lambda call (the functions time out at 10 s): the solver
 * reads the clock every thousand positions and stops at the deadline (scaled by KLONDIKE_TIME_SCALE,
 * ./timeScale.ts).
 */
export const SOLVER_MS = { autocomplete: 2_500, winnableDeal: 2_500, hint: 2_000, analysis: 2_500 } as const;

/** The clock the solver reads (tests replace it to make a deadline pass at once). */
export const solverClock = { now: (): number => performance.now() };

/** A request's solver deadline, and whether the solver met it: then its answer is not the whole work. */
export interface Deadline extends Required<Pick<SolveBudget, 'now' | 'deadline'>> {
  passed(): boolean;
}

/**
 * A deadline `ms` from now. The solver stops as soon as it reads a time at or past the deadline, so
 * a reading there is exactly when the solver was cut short.
 */
export function deadline(ms: number): Deadline {
  const end = solverClock.now() + timeLimit(ms);
  let passed = false;
  return {
    now: () => {
      const now = solverClock.now();
      if (now >= end) passed = true;
      return now;
    },
    deadline: end,
    passed: () => passed,
  };
}

/**
 * 503 `busy` for a request whose solver ran out of its time (docs/api.md): not the store's
 * fault, and not an answer about the game (a hint cut short is not the hint its budget gives, an
 * unfinished proof is not a refusal), so nothing of it is kept and a retry solves again.
 */
export const outOfTime = (what: string, ms: number): Problem =>
  busy(`${what} ran out of its ${timeLimit(ms) / 1000} s of solving; retry in a moment.`);

/** Positions the winnable search spends on one deal before it draws another. */
export const WINNABLE_NODES_PER_DEAL = 200_000;
