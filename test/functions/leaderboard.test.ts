import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dayOf, type GameStatus, previousDay, rankKey } from '../../domain/index.js';
import { handler as getDaily } from '../../functions/handlers/getDaily.js';
import { handler as leaderboard } from '../../functions/handlers/leaderboard.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { chosenName, keepDailyDeal, keepName } from '../../functions/store/daily.js';
import {
  type AttemptRow,
  DAILY_SHARDS,
  recountShard,
  saveAttempt,
} from '../../functions/store/dailyModels.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { gatewayEvent, parse } from '../support/gateway.js';

/**
 * The leaderboard's ranking, ties and paging (docs/api.md), on a real DynamoDB-compatible
 * store holding attempts as the projector writes them.
 */

/** The player `GET /daily` takes the request to be signed in as (sign-in tokens: identity.test.ts). */
let asking: string | undefined;
vi.mock('../../functions/http/auth.js', async (original) => ({
  ...(await original<typeof import('../../functions/http/auth.js')>()),
  signedIn: async () => asking,
}));
const today = dayOf(Date.now());
const yesterday = previousDay(today);
const T = (second: number) => `${yesterday}T10:00:${String(second).padStart(2, '0')}.000Z`;

/** Players, each with a result: the expected order is D, A, B, C, E, F, G (H in play, I resigned). */
const results: [string, GameStatus, number, number, string][] = [
  ['A', 'won', 100, 5000, T(1)],
  ['B', 'won', 100, 5000, T(1)],
  ['C', 'won', 100, 5000, T(2)],
  ['D', 'won', 100, 4000, T(3)],
  ['E', 'won', 101, 10, T(0)],
  ['F', 'won', 120, 1, T(0)],
  ['G', 'won', 120, 1, T(0)],
  ['H', 'playing', 30, 900, T(0)],
  ['I', 'resigned', 12, 900, T(0)],
];
const expected = [
  ['D', 1],
  ['A', 2],
  ['B', 2],
  ['C', 4],
  ['E', 5],
  ['F', 6],
  ['G', 6],
];
/** Entries as [player, rank], in order; within a shared rank the order is fixed but not the ranking's, so by name. */
const standings = (entries: { player: string; rank: number }[]) =>
  entries
    .map((entry) => [entry.player, entry.rank] as const)
    .sort(([a, ra], [b, rb]) => ra - rb || (a < b ? -1 : 1));

let store: LocalStore;
beforeAll(async () => {
  process.env.LOG_LEVEL = 'SILENT';
  store = await startLocalStore();
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[TABLE_ENV] = store.tableName;
  process.env[READ_TABLE_ENV] = store.readTableName;
  for (const day of [yesterday, today]) await keepDailyDeal(day, fixtures.lines[0]!.deck, T(0));
  for (const [name, status, actions, elapsedMs, at] of results) {
    const row: AttemptRow = {
      day: yesterday,
      player: `sub-${name}`,
      gameId: `game-${name}`,
      status,
      version: actions,
      name,
      nameAt: '0',
      actions,
      moves: actions - 10,
      elapsedMs,
      ...(status === 'won' ? { finishedAt: at } : {}),
    };
    const rank = status === 'won' ? rankKey({ actions, elapsedMs, finishedAt: at }) : undefined;
    expect(await saveAttempt(row, { rankKey: rank })).toBe(true);
  }
  for (let shard = 0; shard < DAILY_SHARDS; shard++) await recountShard(yesterday, shard);
});
afterAll(async () => {
  for (const name of [ENDPOINT_ENV, TABLE_ENV, READ_TABLE_ENV]) delete process.env[name];
  await store.close();
});

const page = async (date: string, query: Record<string, string> = {}) => {
  const answer = await leaderboard(
    gatewayEvent({ path: `/daily/${date}/leaderboard`, pathParameters: { date }, query }),
  );
  return { status: answer.statusCode, body: parse(answer) };
};

describe('a day of the leaderboard', () => {
  it('ranks won games by actions, then time, then finish; equal on all three share a rank', async () => {
    const { status, body } = await page(yesterday, { limit: '100' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ date: yesterday, players: 9, won: 7, next: null });
    expect(standings(body.entries)).toEqual(expected);
    const ranks = body.entries.map((entry: any) => entry.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // The day is over: each entry's game, a replay away.
    expect(body.entries[0]).toEqual({
      rank: 1,
      player: 'D',
      actions: 100,
      moves: 90,
      elapsedMs: 4000,
      finishedAt: T(3),
      gameId: 'game-D',
    });
  });

  it('pages with the ranks going on across pages, shared ties included, to a last page with no next', async () => {
    for (const limit of [1, 2, 3]) {
      const seen: { player: string; rank: number }[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const { status, body } = await page(yesterday, {
          limit: String(limit),
          ...(cursor ? { cursor } : {}),
        });
        expect(status).toBe(200);
        expect(body.entries.length).toBeLessThanOrEqual(limit);
        seen.push(...body.entries);
        cursor = body.next ?? undefined;
        pages++;
      } while (cursor);
      expect(standings(seen), `limit ${limit}`).toEqual(expected);
      expect(seen.map((entry) => entry.rank)).toEqual(expected.map(([, rank]) => rank));
      expect(new Set(seen.map((entry) => entry.player)).size).toBe(expected.length);
      expect(pages).toBe(Math.ceil(expected.length / limit));
    }
  });

  it('shows no game id, no sub and nothing of a game in its cursor while the day lasts', async () => {
    const { body } = await page(today);
    expect(body).toMatchObject({ date: today, players: 0, won: 0, entries: [], next: null });
    const first = await page(yesterday, { limit: '2' });
    const cursor = Buffer.from(first.body.next, 'base64url').toString('utf8');
    expect(cursor).not.toMatch(/game-|sub-/);
  });

  it('gives 20 entries a page when no limit is asked', async () => {
    const day = today;
    for (let i = 0; i < 21; i++) {
      const finishedAt = `${day}T10:00:00.000Z`;
      const row: AttemptRow = {
        day,
        player: `sub-${i}`,
        gameId: `game-${i}`,
        status: 'won',
        version: 100 + i,
        name: `P${i}`,
        nameAt: '0',
        actions: 100 + i,
        moves: 90,
        elapsedMs: 1000,
        finishedAt,
      };
      await saveAttempt(row, { rankKey: rankKey({ actions: 100 + i, elapsedMs: 1000, finishedAt }) });
    }
    const first = await page(day);
    expect(first.body.entries.map((entry: any) => entry.player)).toEqual(
      Array.from({ length: 20 }, (_, i) => `P${i}`),
    );
    const rest = await page(day, { cursor: first.body.next });
    expect(rest.body).toMatchObject({ entries: [{ rank: 21, player: 'P20' }], next: null });
    // No shard recounted yet (the projector saves an attempt, then recounts): the counts are still
    // those of no attempt, but no page says fewer wins than it ranks.
    expect(first.body).toMatchObject({ players: 20, won: 20 });
    expect(rest.body).toMatchObject({ players: 21, won: 21 });
  });

  it("GET /daily never gives a player a rank beyond the day's wins, nor fewer players than wins", async () => {
    asking = 'sub-5';
    try {
      const answer = await getDaily(gatewayEvent({ path: '/daily' }));
      expect(answer.statusCode).toBe(200);
      // The shards' counts still say nobody (as above): the answer counts at least the six ranked
      // down to this player.
      expect(parse(answer)).toMatchObject({ players: 6, won: 6, me: { gameId: 'game-5', rank: 6 } });
      for (let shard = 0; shard < DAILY_SHARDS; shard++) await recountShard(today, shard);
      expect(parse(await getDaily(gatewayEvent({ path: '/daily' })))).toMatchObject({
        players: 21,
        won: 21,
        me: { rank: 6 },
      });
    } finally {
      asking = undefined;
    }
  });

  it('refuses a cursor it did not give', async () => {
    for (const cursor of ['x', Buffer.from('{"after":1}').toString('base64url')]) {
      expect((await page(yesterday, { cursor })).status).toBe(400);
    }
    // A `next` altered: a rank past the entries counted, another entry's ranking, a field added.
    const next = JSON.parse(
      Buffer.from((await page(yesterday, { limit: '2' })).body.next, 'base64url').toString(),
    );
    const altered = [
      { ...next, previous: { ...next.previous, rank: next.count + 1 } },
      { ...next, previous: { ...next.previous, key: `${next.previous.key}0` } },
      { ...next, extra: true },
    ];
    for (const cursor of altered) {
      const answer = await page(yesterday, {
        cursor: Buffer.from(JSON.stringify(cursor)).toString('base64url'),
      });
      expect(answer.status, JSON.stringify(cursor)).toBe(400);
    }
    // A `next` with a character added: base64url decoding would skip it.
    const given = (await page(yesterday, { limit: '2' })).body.next;
    expect((await page(yesterday, { cursor: `${given}A` })).status).toBe(400);
    expect((await page(yesterday, { cursor: given })).status).toBe(200);
    // Another day's `next`, as it was given.
    expect((await page(today, { cursor: (await page(yesterday, { limit: '2' })).body.next })).status).toBe(
      400,
    );
  });
});

describe('a chosen name', () => {
  it('is kept with a time after the one it replaces, even within one millisecond: the leaderboards take the later', async () => {
    const at = '2026-12-05T10:00:00.000Z';
    const first = await keepName('sub-renamed', 'First', at);
    const second = await keepName('sub-renamed', 'Second', at);
    expect(first).toBe(at);
    expect(second && first && second > first).toBe(true);
    expect(await chosenName('sub-renamed')).toEqual({ name: 'Second', at: second });
    // Five at once, all in the same millisecond: each its own time, the name kept the one of the latest.
    const kept = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((name) =>
        keepName('sub-renamed', name, at).then((time) => ({ name, time })),
      ),
    );
    const landed = kept.filter((k): k is { name: string; time: string } => k.time !== false);
    expect(new Set(landed.map((k) => k.time)).size).toBe(landed.length);
    const latest = landed.reduce((a, b) => (a.time > b.time ? a : b));
    expect(await chosenName('sub-renamed')).toEqual({ name: latest.name, at: latest.time });
  });
});
