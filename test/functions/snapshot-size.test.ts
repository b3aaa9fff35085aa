import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fold, fromSnapshot, toSnapshot } from '../../domain/index.js';
import { longGame } from '../bench/games.js';

describe('snapshot items', () => {
  const state = fold(longGame(5000));

  it('stay far below the 400 KB item limit for a 5,000-event game', () => {
    const bytes = gzipSync(JSON.stringify({ state: toSnapshot(state), keys: [] })).length;
    expect(bytes).toBeLessThan(64 * 1024);
  });

  it('round-trip exactly', () => {
    const restored = fromSnapshot(JSON.parse(JSON.stringify(toSnapshot(state))));
    // Compared as snapshots: the undo stacks are 5,000-deep linked lists, too deep for a recursive equality.
    expect(toSnapshot(restored)).toEqual(toSnapshot(state));
    expect(restored.done?.size).toBe(state.done?.size);
  });
});
