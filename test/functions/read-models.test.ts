import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_RULES, playerStats } from '../../domain/index.js';
import { ENDPOINT_ENV } from '../../functions/routes.js';
import {
  type GameSummary,
  pageOfGames,
  READ_TABLE_ENV,
  saveStats,
  saveSummary,
  statsOf,
} from '../../functions/store/readModels.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';

/**
 * The read models' own guards, on a real DynamoDB-compatible store: a row or a statistics item is
 * only ever replaced by a newer one, whatever order the projector's writes land in.
 */
let store: LocalStore;
beforeAll(async () => {
  store = await startLocalStore();
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[READ_TABLE_ENV] = store.readTableName;
});
afterAll(async () => {
  delete process.env[ENDPOINT_ENV];
  await store.close();
});

const summary = (version: number, status: GameSummary['status']): GameSummary => ({
  id: 'g1',
  status,
  rules: HOUSE_RULES,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: `2026-01-01T00:00:${String(version).padStart(2, '0')}.000Z`,
  version,
  moves: version,
  score: { vegas: -52, standard: 0 },
});

describe('a game row', () => {
  it('is not overwritten by an older version, nor by the same version again', async () => {
    expect(await saveSummary('p1', summary(5, 'resigned'))).toBe(true);
    expect(await saveSummary('p1', summary(3, 'playing'))).toBe(false);
    expect(await saveSummary('p1', summary(5, 'resigned'))).toBe(false);
    expect((await pageOfGames('p1', { limit: 10 })).games).toEqual([summary(5, 'resigned')]);
    expect((await pageOfGames('p1', { status: 'playing', limit: 10 })).games).toEqual([]);
    expect(await saveSummary('p1', summary(6, 'resigned'))).toBe(true);
    expect((await pageOfGames('p1', { limit: 10 })).games[0]!.version).toBe(6);
  });
});

describe("a player's statistics", () => {
  it('are not overwritten by figures from fewer facts', async () => {
    const newer = playerStats([
      { id: 'a', status: 'won', createdAt: 'x', endedAt: 'y', moves: 90, vegas: 10 },
    ]);
    const older = playerStats([{ id: 'a', status: 'playing', createdAt: 'x', moves: 3, vegas: -52 }]);
    expect(await saveStats('p2', newer, 2)).toBe(true);
    expect(await saveStats('p2', older, 1)).toBe(false);
    expect(await statsOf('p2')).toEqual(newer);
  });
});
