import { AsyncLocalStorage } from 'node:async_hooks';
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

/** When the request being served arrived, in epoch milliseconds (see `sinceArrival`). */
const arrivals = new AsyncLocalStorage<number>();

/**
 * Runs a request's work with the time it arrived (API Gateway's `requestContext.timeEpoch`; the local
 * runtime sets it as a request comes in), so that its solver deadline counts from there: the time the
 * request waited (for a Lambda's cold start, or locally for a solver worker busy with another request)
 * is part of the answer's time too. Without a plausible arrival time, the deadline counts from the
 * solver's start.
 */
export const sinceArrival = <T>(arrivedAt: number | undefined, run: () => Promise<T>): Promise<T> =>
  arrivedAt !== undefined && Number.isFinite(arrivedAt) && arrivedAt > 0
    ? arrivals.run(arrivedAt, run)
    : run();

/**
 * A deadline `ms` after the request arrived (see `sinceArrival`), or after now outside a request.
 * The solver stops as soon as it reads a time at or past the deadline, so a reading there is exactly
 * when the solver was cut short: at once if the request has already waited `ms`.
 */
export function deadline(ms: number): Deadline {
  const arrivedAt = arrivals.getStore();
  const waited = arrivedAt === undefined ? 0 : Math.max(0, Date.now() - arrivedAt);
  const end = solverClock.now() + timeLimit(ms) - waited;
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
