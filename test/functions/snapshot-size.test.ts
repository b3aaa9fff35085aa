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
    expect(fromSnapshot(JSON.parse(JSON.stringify(toSnapshot(state))))).toEqual(state);
  });
});
