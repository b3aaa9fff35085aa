/**
 * The service's clock: the time of every event it appends and the day of the daily deal. Locally,
 * `KLONDIKE_CLOCK_OFFSET_S=<seconds>` moves it by that much (to try the day boundary); the stack
 * never sets it, so in AWS it is the system clock.
 */
export const CLOCK_OFFSET_ENV = 'KLONDIKE_CLOCK_OFFSET_S';

/** 100 years, either way: far past any day a test needs, and far inside what a Date holds. */
const MAX_OFFSET_S = 100 * 366 * 86_400;

/** The offset in seconds as given, or why it is not one (the local runtime refuses to start then). */
export function clockOffset(value = process.env[CLOCK_OFFSET_ENV]): number | { readonly problem: string } {
  if (value === undefined || value === '') return 0;
  const seconds = Number(value);
  if (!/^[+-]?\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(seconds))
    return {
      problem: `${CLOCK_OFFSET_ENV} must be a number of seconds written in digits (such as 86400 or -3600), not ${JSON.stringify(value)}`,
    };
  // A clock moved past what a date can hold would fail every request that reads the time.
  if (Math.abs(seconds) > MAX_OFFSET_S)
    return {
      problem: `${CLOCK_OFFSET_ENV} moves the clock by at most ${MAX_OFFSET_S} seconds (100 years either way), not ${JSON.stringify(value)}`,
    };
  return seconds;
}

/** Now, in epoch milliseconds. */
export function now(): number {
  const offset = clockOffset();
  return Date.now() + (typeof offset === 'number' ? offset * 1000 : 0);
}

export const nowIso = (): string => new Date(now()).toISOString();
