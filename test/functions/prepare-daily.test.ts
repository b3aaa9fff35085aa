import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dayOf, HOUSE_RULES, nextDay, parseDeck, solve } from '../../domain/index.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { METRIC, handler as prepare } from '../../functions/schedule/prepareDaily.js';
import { solverClock } from '../../functions/solver.js';
import { dailyDeal, firstDailyDay } from '../../functions/store/daily.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';

/** The hourly schedule's function: today's and tomorrow's deals kept ahead, proved winnable, and its metric. */
let store: LocalStore;
const clock = solverClock.now;
beforeAll(async () => {
  // A clock that stands still: the search is bounded by its node budget alone, however busy the machine.
  solverClock.now = () => 0;
  store = await startLocalStore();
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[TABLE_ENV] = store.tableName;
});
afterAll(async () => {
  solverClock.now = clock;
  delete process.env[ENDPOINT_ENV];
  delete process.env[TABLE_ENV];
  await store.close();
});

describe('the daily deals prepared ahead', () => {
  it("keeps today's and tomorrow's deals, each winnable, and runs again without changing them", async () => {
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const today = dayOf(Date.now());
      const tomorrow = nextDay(today);
      expect(await prepare()).toEqual({ prepared: [today, tomorrow] });
      const kept = [await dailyDeal(today), await dailyDeal(tomorrow)];
      for (const deal of kept) {
        expect(deal?.rules).toEqual(HOUSE_RULES);
        const deck = parseDeck(deal!.deck);
        expect(Array.isArray(deck) && solve(deck, HOUSE_RULES, { nodes: 200_000 }).result).toBe('won');
      }
      expect(kept[0]!.deck).not.toEqual(kept[1]!.deck);
      expect(await firstDailyDay()).toBe(today);
      await prepare();
      expect([await dailyDeal(today), await dailyDeal(tomorrow)]).toEqual(kept);
      // One metric line a run, in CloudWatch's embedded metric format.
      const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toHaveLength(2);
      expect(lines[0]._aws.CloudWatchMetrics[0]).toEqual({
        Namespace: METRIC.namespace,
        Dimensions: [[METRIC.dimension]],
        Metrics: [{ Name: METRIC.name, Unit: 'Count' }],
      });
      expect(lines[0][METRIC.name]).toBe(0);
      // The stage's own figure: stages side by side in one account never answer for each other.
      expect(lines[0][METRIC.dimension]).toBe(store.tableName);
    } finally {
      logged.mockRestore();
    }
  });

  it('fails the run when a deal could not be kept (the alarm on its errors, the retry), after its metric', async () => {
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    process.env[TABLE_ENV] = 'no-such-table';
    try {
      await expect(prepare()).rejects.toThrow();
      expect(logged.mock.calls.map(([line]) => Object.keys(JSON.parse(String(line))))).toEqual([
        ['_aws', METRIC.dimension, METRIC.name, 'tomorrow'],
      ]);
    } finally {
      process.env[TABLE_ENV] = store.tableName;
      logged.mockRestore();
    }
  });
});
