/**
 * `KLONDIKE_TIME_SCALE=<factor>` makes every time limit the service sets itself that many times as
 * long: the store's per call and per request, one attempt's, the solver's deadlines, the wait for the
 * issuer's keys, a function's timeout and the wait for a free container (locally), and how long a
 * start waits for an outside store. Those limits protect a request from a slow store or a slow
 * machine; on a machine that other work keeps busy they would also fire where nothing is wrong. The
 * test suite sets it (vitest.config.ts), so that a limit there fires only in the tests that are about
 * it, which give their limits explicitly or set the factor back to 1. The stack never sets it, so in
 * AWS every limit is as written. The answers' own budgets (the solver's nodes) are never scaled.
 */
export const TIME_SCALE_ENV = 'KLONDIKE_TIME_SCALE';

/** The factor as given (1 when unset), or why it is not one (the local runtime refuses to start then). */
export function timeScale(value = process.env[TIME_SCALE_ENV]): number | { readonly problem: string } {
  if (value === undefined || value === '') return 1;
  const factor = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(factor > 0))
    return {
      problem: `${TIME_SCALE_ENV} must be a positive number (such as 10), not ${JSON.stringify(value)}`,
    };
  return factor;
}

/** `ms`, scaled: whole milliseconds (timers and AbortSignal.timeout take nothing else). */
export function timeLimit(ms: number): number {
  const factor = timeScale();
  return typeof factor === 'number' ? Math.round(ms * factor) : ms;
}
