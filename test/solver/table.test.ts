import { describe, expect, it } from 'vitest';
import { PositionTable } from '../../domain/solver/table.js';

describe('the table of positions', () => {
  it('finds what it holds, through growing, and a table made in the memory of a released one starts empty', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => [Math.imul(i + 1, 0x9e3779b1), i] as const);
    const first = new PositionTable(10);
    for (const [i, [hi, lo]] of keys.entries()) first.add(first.claim(hi, lo), i % 3, 1 << (i % 20));
    expect(first.size).toBe(keys.length);
    expect(keys.every(([hi, lo], i) => first.get(first.find(hi, lo), i % 3) === 1 << (i % 20))).toBe(true);
    expect(first.find(7, 7)).toBe(-1);
    first.release();
    for (const log2 of [16, 12, 16]) {
      const next = new PositionTable(log2);
      expect(keys.every(([hi, lo]) => next.find(hi, lo) === -1)).toBe(true);
      const at = next.claim(keys[0]![0], keys[0]![1]);
      expect([next.get(at, 0), next.get(at, 1), next.get(at, 2)]).toEqual([0, 0, 0]);
      next.add(at, 1, 4);
      next.release();
    }
  });
});
