/** The figures the benchmark and study scripts print: percentiles and 95% intervals of shares. */

/**
 * The value at `q` (0..1) of values sorted ascending: the one at index `floor(q * n)`, so the median
 * of an even count is the upper of the middle two; NaN when there are none.
 */
export const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** `percentile` of values in any order (left as they are). */
export const percentileOf = (values: readonly number[], q: number): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    q,
  );

/**
 * The 95% Wilson score interval of the share of `k` successes in `n` trials, within 0..1 (the
 * formula's rounding can fall just outside, which would print as -0.00%); 0..1 when `n` is 0.
 */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
