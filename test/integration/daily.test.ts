import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, nextDay } from '../../domain/index.js';
import { CLOCK_OFFSET_ENV } from '../../functions/clock.js';
import { keepDailyDeal } from '../../functions/store/daily.js';
import { type Runtime, startRuntime } from '../../infra/local/runtime.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { type Client, client } from '../support/local.js';

/**
 * The daily deal over HTTP (docs/api.md), on a `--data` folder, across its day boundary:
 * the clock is moved with KLONDIKE_CLOCK_OFFSET_S, and the runtime restarted on the same folder.
 */
const [line] = fixtures.lines;
const DAY_S = 86_400;
const today = dayOf(Date.now());

let dir: string;
let runtime: Runtime;
let api: Client;
const jwt: Record<string, Record<string, string>> = {};

async function start(offsetDays: number) {
  process.env[CLOCK_OFFSET_ENV] = String(offsetDays * DAY_S);
  process.env.LOG_LEVEL = 'SILENT';
  runtime = await startRuntime({ port: 0, dataDir: dir });
  api = client(runtime.url);
  for (const name of ['alice', 'bob', 'carol', 'dan']) {
    jwt[name] = { authorization: `Bearer ${await runtime.issuer!.tokenFor(name)}` };
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'klondike-daily-'));
  await start(0);
});

afterAll(async () => {
  await runtime?.stop();
  delete process.env[CLOCK_OFFSET_ENV];
  rmSync(dir, { recursive: true, force: true });
});

const ids: Record<string, string> = {};

describe('the day of a daily deal', () => {
  it("today's leaderboard is there, empty, before anyone has asked for today's deal", async () => {
    const board = await api.get(`/daily/${today}/leaderboard`);
    expect(board.status).toBe(200);
    expect(board.body).toEqual({ date: today, players: 0, won: 0, entries: [], next: null });
    // Today's deal is a deal with a known winning line, kept as the schedule would keep it.
    await keepDailyDeal(today, line!.deck, new Date().toISOString());
  });

  it('GET /daily is public: the date, the house rules, nobody yet', async () => {
    const daily = await api.get('/daily');
    expect(daily.status).toBe(200);
    expect(daily.body).toEqual({
      date: today,
      rules: { draw: 3, passes: 3, foundationToTableau: true },
      players: 0,
      won: 0,
      me: null,
    });
    expect((await api.get('/daily', jwt.alice)).body.me).toBeNull();
  });

  it('POST /daily/games needs a sign-in: 401 without one, and with a game token', async () => {
    expect((await api.post('/daily/games')).status).toBe(401);
    const anonymous = await api.post('/games', { seed: 1 });
    const withToken = await api.post('/daily/games', undefined, {
      authorization: `Bearer ${anonymous.body.token}`,
    });
    expect(withToken.status).toBe(401);
  });

  it("deals each player the day's deal once: 201 with a token, then the same game (200), never a second deal", async () => {
    const first = await api.post('/daily/games', undefined, jwt.alice);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ version: 0, status: 'playing', daily: today });
    expect(first.body.token).toEqual(expect.any(String));
    expect(first.body.deck).toBeUndefined();
    expect(first.headers.get('location')).toBe(`/games/${first.body.id}`);
    ids.alice = first.body.id;
    const again = await api.post('/daily/games', undefined, jwt.alice);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(ids.alice);
    expect(again.body.token).toBeUndefined();
    // Racing calls of one player agree on one game.
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => api.post('/daily/games', undefined, jwt.carol)),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(racing.map((answer) => answer.body.id)).size).toBe(1);
    ids.carol = racing[0]!.body.id;
    // Another player: another game, on the same deal.
    const bob = await api.post('/daily/games', undefined, jwt.bob);
    expect(bob.status).toBe(201);
    ids.bob = bob.body.id;
    expect(ids.bob).not.toBe(ids.alice);
    const { id: _a, token: _t, ...aliceView } = first.body;
    const { id: _b, token: _u, ...bobView } = bob.body;
    expect(bobView).toEqual(aliceView);
  });

  it('a keyed retry of the first call gives its first answer, token included', async () => {
    const key = { ...jwt.dan, 'idempotency-key': crypto.randomUUID() };
    const first = await api.post('/daily/games', undefined, key);
    expect(first.status).toBe(201);
    ids.dan = first.body.id;
    const again = await api.post('/daily/games', undefined, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('while the day lasts: no hint, no analysis, and a finished game is neither public nor revealed', async () => {
    const hint = await api.get(`/games/${ids.alice}/hint`, jwt.alice);
    expect(hint.status).toBe(422);
    expect(hint.body).toMatchObject({ rule: 'daily-in-progress' });
    let view: any;
    for (const move of line!.moves) {
      const answer = await api.post(`/games/${ids.alice}/moves`, move, jwt.alice);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      view = answer.body;
    }
    expect(view.status).toBe('won');
    expect(view.deck).toBeUndefined();
    const resigned = await api.post(`/games/${ids.bob}/resign`, undefined, jwt.bob);
    expect(resigned.body.status).toBe('resigned');
    expect(resigned.body.deck).toBeUndefined();
    expect(resigned.body.tableau.some((column: any) => column.hiddenCards)).toBe(false);
    for (const path of ['', '/events', '/replay']) {
      expect((await api.get(`/games/${ids.bob}${path}`)).status).toBe(401);
      expect(JSON.stringify((await api.get(`/games/${ids.bob}${path}`, jwt.bob)).body)).not.toContain(
        '"deck"',
      );
    }
    const analysis = await api.get(`/games/${ids.bob}/analysis`, jwt.bob);
    expect(analysis.status).toBe(422);
    expect(analysis.body).toMatchObject({ rule: 'daily-in-progress' });
  });

  it("GET /daily counts the day's attempts and wins, and gives the player their standing and rank", async () => {
    await runtime.settled();
    const daily = await api.get('/daily', jwt.alice);
    expect(daily.body).toMatchObject({ date: today, players: 4, won: 1 });
    expect(daily.body.me).toEqual({
      gameId: ids.alice,
      status: 'won',
      actions: line!.moves.length,
      moves: expect.any(Number),
      elapsedMs: expect.any(Number),
      rank: 1,
    });
    expect((await api.get('/daily', jwt.bob)).body.me).toMatchObject({
      gameId: ids.bob,
      status: 'resigned',
      rank: null,
    });
  });

  it('the leaderboard ranks the won games, names players by a name derived from the sub, and shows no game id yet', async () => {
    const board = await api.get(`/daily/${today}/leaderboard`);
    expect(board.status).toBe(200);
    expect(board.body).toMatchObject({ date: today, players: 4, won: 1, next: null });
    expect(board.body.entries).toEqual([
      {
        rank: 1,
        player: expect.stringMatching(/^Player [A-Z2-9]{6}$/),
        actions: line!.moves.length,
        moves: expect.any(Number),
        elapsedMs: expect.any(Number),
        finishedAt: expect.any(String),
        gameId: null,
      },
    ]);
    expect(JSON.stringify(board.body)).not.toContain('alice');
  });

  it('a chosen name is checked, kept, and shown on the leaderboard', async () => {
    for (const bad of [
      '',
      '   ',
      'x'.repeat(25),
      `${'x'.repeat(11)}   ${'x'.repeat(11)}`,
      '<script>',
      'a@b.c',
      'tab\there',
      // A combining mark is part of a letter, not a character of its own.
      '\u0301',
      ' \u0301\u0301',
      '1\u0301',
      // One letter under a tower of marks: at most 4 a letter.
      `x${'\u0301'.repeat(5)}`,
      `a${'\u0301'.repeat(199)}`,
    ]) {
      const refused = await api.call('PUT', '/me/profile', { body: { name: bad }, headers: jwt.alice });
      expect(refused.status, bad).toBe(400);
    }
    expect((await api.call('PUT', '/me/profile', { body: { name: 'Alice' } })).status).toBe(401);
    const named = await api.call('PUT', '/me/profile', {
      body: { name: "  Zoë O'Neil-Ωmega " },
      headers: jwt.alice,
    });
    expect(named.status).toBe(200);
    expect(named.body).toEqual({ name: "Zoë O'Neil-Ωmega", displayName: "Zoë O'Neil-Ωmega" });
    expect((await api.get('/me/profile', jwt.alice)).body).toEqual(named.body);
    // Trimmed at its ends only: the spaces a player put within it are theirs. Letters with their
    // combining marks (Devanagari's vowel signs) are letters.
    const spaced = await api.call('PUT', '/me/profile', {
      body: { name: ' Ann  नमस्ते ' },
      headers: jwt.carol,
    });
    expect(spaced.body).toEqual({ name: 'Ann  नमस्ते', displayName: 'Ann  नमस्ते' });
    // 24 letters, the last with a mark that does not compose with it: 24 characters, not 25.
    const marked = `${'x'.repeat(23)}x\u0302`;
    const long = await api.call('PUT', '/me/profile', { body: { name: marked }, headers: jwt.carol });
    expect(long.status).toBe(200);
    expect(long.body.name).toBe(marked);
    expect(
      (await api.call('PUT', '/me/profile', { body: { name: `x${marked}` }, headers: jwt.carol })).status,
    ).toBe(400);
    await api.call('PUT', '/me/profile', { body: { name: ' Ann  नमस्ते ' }, headers: jwt.carol });
    const bob = (await api.get('/me/profile', jwt.bob)).body;
    expect(bob).toEqual({ name: null, displayName: expect.stringMatching(/^Player [A-Z2-9]{6}$/) });
    // Vietnamese stacks two marks on a letter, decomposed here (NFC composes what it can).
    const vietnamese = 'Nguye\u0302\u0303n'; // Nguyễn
    const accented = await api.call('PUT', '/me/profile', { body: { name: vietnamese }, headers: jwt.dan });
    expect(accented.body.name).toBe(vietnamese.normalize('NFC'));
    // Another player's derived name would pass for them; one's own is one's own.
    const posing = await api.call('PUT', '/me/profile', {
      body: { name: bob.displayName },
      headers: jwt.carol,
    });
    expect(posing.status).toBe(400);
    expect(posing.body.detail).toMatch(/choose another/);
    // So would a name a page shows the same: two spaces (shown as one), a Cyrillic а, a fullwidth
    // Ｐ, another case.
    const tag = bob.displayName.slice('Player '.length);
    for (const lookalike of [
      `Player  ${tag}`,
      `Pl\u0430yer ${tag}`,
      `\uFF30layer ${tag}`,
      `PLAYER ${tag.toLowerCase()}`,
    ]) {
      const refused = await api.call('PUT', '/me/profile', { body: { name: lookalike }, headers: jwt.carol });
      expect(refused.status, lookalike).toBe(400);
      expect(refused.body.detail, lookalike).toMatch(/choose another/);
    }
    const own = await api.call('PUT', '/me/profile', { body: { name: bob.displayName }, headers: jwt.bob });
    expect(own.body.name).toBe(bob.displayName);
    await api.call('PUT', '/me/profile', { body: { name: 'Player Wonder' }, headers: jwt.dan });
    expect((await api.get('/me/profile', jwt.dan)).body.name).toBe('Player Wonder');
    await runtime.settled();
    const board = await api.get(`/daily/${today}/leaderboard`);
    expect(board.body.entries[0].player).toBe("Zoë O'Neil-Ωmega");
  });

  it('a leaderboard of a day after today, or before the first deal, is 404; a malformed date is 400', async () => {
    const ahead = await api.get(`/daily/${nextDay(today)}/leaderboard`);
    expect(ahead.status).toBe(404);
    expect(ahead.body.detail).toBe(
      `There is no daily deal of ${nextDay(today)} yet: today is ${today} (UTC).`,
    );
    const before = await api.get('/daily/2001-01-01/leaderboard');
    expect(before.status).toBe(404);
    // Today's deal is this store's first: no day before it had one, and none ever will.
    expect(before.body.detail).toBe(`There is no daily deal of 2001-01-01: the first was on ${today}.`);
    for (const bad of ['2026-13-01', '2026-02-30', 'today', '2026-1-01']) {
      expect((await api.get(`/daily/${bad}/leaderboard`)).status, bad).toBe(400);
    }
    expect((await api.get(`/daily/${today}/leaderboard?limit=0`)).status).toBe(400);
    expect((await api.get(`/daily/${today}/leaderboard?limit=101`)).status).toBe(400);
    expect((await api.get(`/daily/${today}/leaderboard?cursor=nonsense`)).status).toBe(400);
  });
});

describe('the next day, on the same --data folder', () => {
  beforeAll(async () => {
    await runtime.stop();
    await start(1);
    // Kept ahead as the schedule keeps it (a deal drawn on the day's first request is the same code,
    // tested in test/functions/prepare-daily.test.ts without a clock a busy machine could run out).
    await keepDailyDeal(nextDay(today), fixtures.lines[1]!.deck, new Date().toISOString());
  });

  it("has a new deal, and yesterday's games are public, revealed, hinted and analysed", async () => {
    const daily = await api.get('/daily', jwt.alice);
    // The answers' Date is the service's clock, a day on, as the events' times are.
    const date = Date.parse(daily.headers.get('date') ?? '');
    expect(date - Date.now()).toBeGreaterThan(DAY_S * 1000 - 60_000);
    expect(date - Date.now()).toBeLessThan(DAY_S * 1000 + 60_000);
    expect(daily.body).toMatchObject({ date: nextDay(today), players: 0, won: 0, me: null });
    const fresh = await api.post('/daily/games', undefined, jwt.alice);
    expect(fresh.status).toBe(201);
    expect(fresh.body.daily).toBe(nextDay(today));
    const old = await api.get(`/games/${ids.bob}`);
    expect(old.status).toBe(200);
    expect(old.body.deck).toEqual(line!.deck);
    // Today's deal is another: its face-up cards are not yesterday's.
    const faceUp = (deck: readonly string[]) => [0, 7, 13, 18, 22, 25, 27].map((i) => deck[i]);
    expect(fresh.body.tableau.map((c: any) => c.cards[0])).toEqual(faceUp(fixtures.lines[1]!.deck));
    expect(faceUp(fixtures.lines[1]!.deck)).not.toEqual(faceUp(line!.deck));
    expect((await api.get(`/games/${ids.bob}/analysis`)).status).toBe(200);
  });

  it("yesterday's leaderboard shows each entry's game, a replay away", async () => {
    const board = await api.get(`/daily/${today}/leaderboard`);
    expect(board.body.entries).toMatchObject([{ rank: 1, gameId: ids.alice }]);
    expect((await api.get(`/games/${ids.alice}/replay?from=0&to=3`)).status).toBe(200);
  });

  it('a daily game finished after its day is over is not ranked, nor counted as a daily win', async () => {
    // carol left yesterday's game in play; past midnight its deal is public, so her win ranks nowhere.
    for (const move of line!.moves) await api.post(`/games/${ids.carol}/moves`, move, jwt.carol);
    expect((await api.get(`/games/${ids.carol}`, jwt.carol)).body.status).toBe('won');
    await runtime.settled();
    const board = await api.get(`/daily/${today}/leaderboard`);
    expect(board.body).toMatchObject({ players: 4, won: 1 });
    expect(board.body.entries.map((entry: any) => entry.gameId)).toEqual([ids.alice]);
    expect((await api.get('/me/stats', jwt.carol)).body.daily).toMatchObject({ played: 1, won: 0 });
  });

  it("the player's record counts their daily deals and the streak still current", async () => {
    await runtime.settled();
    const stats = await api.get('/me/stats', jwt.alice);
    expect(stats.body.daily).toEqual({ played: 2, won: 1, currentStreak: 1, bestStreak: 1 });
    expect((await api.get('/me/stats', jwt.bob)).body.daily).toEqual({
      played: 1,
      won: 0,
      currentStreak: 0,
      bestStreak: 0,
    });
  });
});
