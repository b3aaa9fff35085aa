import { describe, expect, it } from 'vitest';
import { percentile, percentileOf, wilson } from '../../scripts/stats.js';

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
});
