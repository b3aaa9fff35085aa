import { describe, expect, it } from 'vitest';
import {
  groupedQuantileInterval,
  percentile,
  percentileOf,
  quantileInterval,
  quantilePlaces,
  wilson,
  withInterval,
} from '../../scripts/stats.js';

describe('the figures the benchmarks and the study print', () => {
  it('gives the 95% Wilson interval of a share', () => {
    // The hints' share of seeds 0..999 in docs/solver.md: 187 of 1,000 won, 16.4-21.2%.
    const [low, high] = wilson(187, 1000);
    expect(low).toBeCloseTo(0.16405, 4);
    expect(high).toBeCloseTo(0.21235, 4);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });

  it('keeps the interval within 0..1, so that none and all print as 0.00% and 100.00%', () => {
    for (const n of [1, 14, 32, 1000, 20_000]) {
      const [none] = wilson(0, n);
      const [, all] = wilson(n, n);
      expect((100 * none).toFixed(2)).toBe('0.00');
      expect((100 * all).toFixed(2)).toBe('100.00');
      expect(none).toBeGreaterThanOrEqual(0);
      expect(all).toBeLessThanOrEqual(1);
    }
  });

  it('takes the value at floor(q * n) of the sorted values, the upper middle one for an even count', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(3);
    expect(percentile([1, 2, 3], 0.5)).toBe(2);
    expect(percentile([1, 2, 3], 0.99)).toBe(3);
    expect(percentile([], 0.5)).toBeNaN();
    const values = [4, 1, 3, 2];
    expect(percentileOf(values, 0.5)).toBe(3);
    expect(values).toEqual([4, 1, 3, 2]);
  });

  it('gives the 95% interval of a percentile by the places a binomial count allows', () => {
    // The textbook interval of the median of 100 values: the 40th to the 61st (places 39 and 60).
    expect(quantilePlaces(100, 0.5)).toEqual([39, 60]);
    // Of 10 values, the 2nd to the 9th (coverage 97.9%); of 5, no lower end can reach 95%.
    expect(quantilePlaces(10, 0.5)).toEqual([1, 8]);
    expect(quantilePlaces(5, 0.5)).toEqual([-1, 5]);
    // A p99 of 20,000 values, where (1 - q)^n underflows without logarithms.
    const [low, high] = quantilePlaces(20_000, 0.99);
    expect(low).toBeGreaterThan(19_760);
    expect(low).toBeLessThan(19_800);
    expect(high).toBeGreaterThan(19_800);
    expect(high).toBeLessThan(19_840);
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantileInterval(values, 0.5)).toEqual([40, 61]);
    expect(quantileInterval(values.slice(0, 5), 0.5)).toEqual([Number.NaN, Number.NaN]);
    expect(withInterval(3.26, [3, Number.NaN], 1, ' ms')).toBe('3.3 ms (95% CI 3.0-?)');
  });

  it('widens the interval of values that come in groups, by resampling whole groups, the same each run', () => {
    // 40 groups of 50 values, each group around its own level: the values are far from independent.
    const groups = Array.from({ length: 40 }, (_, g) => Array.from({ length: 50 }, (_, i) => g + i / 100));
    const pooled = groups.flat().sort((a, b) => a - b);
    const [iidLow, iidHigh] = quantileInterval(pooled, 0.5);
    const [low, high] = groupedQuantileInterval(groups, 0.5);
    expect(low).toBeLessThanOrEqual(percentile(pooled, 0.5));
    expect(high).toBeGreaterThanOrEqual(percentile(pooled, 0.5));
    expect(high - low).toBeGreaterThan(3 * (iidHigh - iidLow));
    expect(groupedQuantileInterval(groups, 0.5)).toEqual([low, high]);
    expect(groupedQuantileInterval([], 0.5)).toEqual([Number.NaN, Number.NaN]);
  });
});
