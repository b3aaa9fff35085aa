/** The table's measures (client/web/src/layout.ts), without a browser. */
import { describe, expect, it } from 'vitest';
import { fanOf, minStepFor, tableSize } from '../../client/web/src/layout.js';

/** The height a column of `backs` face-down and `faces` face-up cards takes with its fan. */
const columnHeight = (backs: number, faces: number, size: ReturnType<typeof tableSize>) => {
  const fan = fanOf(backs, faces, size);
  const downSteps = faces > 0 ? backs : backs - 1;
  return size.cardHeight + downSteps * fan.down + Math.max(0, faces - 1) * fan.up;
};

describe('the table measures', () => {
  // Boxes the table gets in those windows, with the bars above it.
  const boxes = [
    [1264, 650],
    [1350, 620],
    [1904, 930],
    [382, 620],
    [320, 420],
  ] as const;

  it.each(boxes)('fits the longest column in a %i x %i box, every rank in view', (width, height) => {
    const size = tableSize(width, height);
    expect(7 * size.card + 6 * size.gap).toBeLessThanOrEqual(width);
    expect(size.cardHeight + size.rowGap + size.columns).toBeLessThanOrEqual(height + 1);
    for (const [backs, faces] of [
      [0, 19], // a finished game: six face-down cards shown face up, and thirteen
      [6, 13], // in play
      [6, 1],
      [0, 1],
    ] as const) {
      expect(columnHeight(backs, faces, size), `${backs} + ${faces}`).toBeLessThanOrEqual(size.columns);
      expect(fanOf(backs, faces, size).up).toBeGreaterThanOrEqual(size.minStep);
    }
    expect(size.minStep).toBe(minStepFor(size.card));
  });

  it('gives bigger cards to bigger windows, and a roomy fan to short columns', () => {
    const small = tableSize(1264, 650);
    const large = tableSize(1904, 930);
    expect(large.card).toBeGreaterThan(small.card * 1.3);
    const short = fanOf(3, 2, large);
    const long = fanOf(6, 13, large);
    expect(short.up).toBeGreaterThan(long.up);
    expect(short.down).toBeGreaterThanOrEqual(long.down);
  });
});
