/** The figures the benchmark and study scripts print: percentiles, and the 95% intervals of shares and percentiles. */
import { mulberry32 } from '../domain/shuffle.js';

/**
 * The value at `q` (0..1) of values sorted ascending: the one at index `floor(q * n)`, so the median
 * of an even count is the upper of the middle two; NaN when there are none.
 */
export const percentile = (sorted: ArrayLike<number>, q: number): number =>
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

/**
 * The places (0-based, in the sorted values) of the ends of a 95% interval for the `q` quantile of
 * `n` values drawn independently: the true quantile lies between the values there with a chance of
 * at least 95% whatever the distribution. The count of values below it is binomial (n, q); the
 * lower end is the highest place with at most 2.5% of that count's chance below it, the upper the
 * lowest with at least 97.5% at or below it (in log space: (1 - q)^n underflows). An end no place
 * can give (too few values, or a quantile too near 0 or 1) is -1 or n.
 */
export function quantilePlaces(n: number, q: number): [number, number] {
  if (n === 0) return [-1, 0];
  const ratio = Math.log(q) - Math.log1p(-q);
  let logChance = n * Math.log1p(-q); // of exactly 0 values below
  let below = 0; // the chance of fewer than k values below
  let low = -1;
  let high = n;
  for (let k = 0; k <= n; k++) {
    if (below <= 0.025) low = k - 1;
    const chance = Math.exp(logChance);
    if (below + chance >= 0.975) {
      high = k;
      break;
    }
    below += chance;
    logChance += Math.log((n - k) / (k + 1)) + ratio;
  }
  return [low, high];
}

/**
 * The 95% interval of the `q` quantile of `sorted` (ascending) values drawn independently
 * (`quantilePlaces`): NaN for an end no place gives.
 */
export function quantileInterval(sorted: readonly number[], q: number): [number, number] {
  const [low, high] = quantilePlaces(sorted.length, q);
  return [sorted[low] ?? Number.NaN, sorted[high] ?? Number.NaN];
}

/**
 * The 95% interval of the `q` quantile of all the values of `groups` together, when the values of a
 * group are not drawn independently of each other (the hints of one game: a hard deal's are all slow):
 * a bootstrap over the groups, `replicates` resamples of as many groups drawn with replacement, the
 * interval between the 2.5% and 97.5% percentiles of their quantiles. Seeded, so a run gives the
 * same interval each time.
 */
export function groupedQuantileInterval(
  groups: readonly (readonly number[])[],
  q: number,
  replicates = 1000,
  seed = 1,
): [number, number] {
  if (groups.length === 0) return [Number.NaN, Number.NaN];
  const next = mulberry32(seed);
  const largest = groups.reduce((most, group) => Math.max(most, group.length), 0);
  const values = new Float64Array(largest * groups.length);
  const quantiles: number[] = [];
  for (let r = 0; r < replicates; r++) {
    let n = 0;
    for (let g = 0; g < groups.length; g++) {
      for (const value of groups[next() % groups.length]!) values[n++] = value;
    }
    if (n > 0) quantiles.push(percentile(values.subarray(0, n).sort(), q));
  }
  quantiles.sort((a, b) => a - b);
  return [percentile(quantiles, 0.025), percentile(quantiles, 0.975)];
}

/** A figure and its 95% interval, as the scripts print them: "5.3 ms (95% CI 5.1-5.6)". */
export const withInterval = (
  value: number,
  [low, high]: readonly [number, number],
  digits: number,
  unit = '',
): string =>
  `${value.toFixed(digits)}${unit} (95% CI ${Number.isNaN(low) ? '?' : low.toFixed(digits)}-${Number.isNaN(high) ? '?' : high.toFixed(digits)})`;
