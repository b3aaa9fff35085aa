import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as responses from '../../functions/responseSchemas.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { type Client, newGame, useLocalApi } from '../support/local.js';

/** Players over real HTTP: the development issuer, games that belong to them, and the read side. */
const server = useLocalApi();
const line = fixtures.lines[0]!;

async function signIn(api: Client, player: string) {
  const answer = await api.post('/dev/tokens', { player });
  expect(answer.status).toBe(200);
  return { authorization: `Bearer ${answer.body.token as string}` };
}

const fits = (schema: z.ZodMiniType, value: unknown) => {
  const result = z.safeParse(schema, value);
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
};

describe('the development issuer', () => {
  it('publishes its keys and signs a token for a player, valid for an hour', async () => {
    const jwks = await server.api.get('/.well-known/jwks.json');
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256', use: 'sig' });
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
    const { token } = (await server.api.post('/dev/tokens', { player: 'alice' })).body;
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'alice', iss: server.local.url, aud: 'klondike-local' });
    expect(claims.exp - claims.iat).toBe(3600);
    for (const bad of [{}, { player: '' }, { player: 'a b' }, { player: 'x'.repeat(65) }]) {
      expect((await server.api.post('/dev/tokens', bad)).status).toBe(400);
    }
  });
});

describe('games that belong to a player', () => {
  it("open with the game's token or the owner's sign-in token; another player's is 403", async () => {
    const alice = await signIn(server.api, 'alice-1');
    const bob = await signIn(server.api, 'bob-1');
    const created = await server.api.post('/games', { seed: 3 }, alice);
    expect(created.status).toBe(201);
    const { id, token } = created.body;
    expect((await server.api.post(`/games/${id}/moves`, { type: 'draw' }, alice)).status).toBe(200);
    expect((await server.api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).body.version).toBe(1);
    const other = await server.api.post(`/games/${id}/moves`, { type: 'draw' }, bob);
    expect(other.status).toBe(403);
    expect((await server.api.get(`/games/${id}`, bob)).status).toBe(403);
    // An anonymous game opens with its token only.
    const anonymous = await newGame(server.api);
    expect((await server.api.get(`/games/${anonymous.id}`, alice)).status).toBe(403);
    expect((await server.api.get(`/games/${anonymous.id}`, anonymous.auth)).status).toBe(200);
  });

  it("a signed-in player's creation keys are their own; short ones are fine for them", async () => {
    const alice = await signIn(server.api, 'alice-2');
    const bob = await signIn(server.api, 'bob-2');
    const key = { 'idempotency-key': 'my-first-game' };
    const first = await server.api.post('/games', { seed: 5 }, { ...alice, ...key });
    expect(first.status).toBe(201);
    const again = await server.api.post('/games', { seed: 5 }, { ...alice, ...key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const bobs = await server.api.post('/games', { seed: 5 }, { ...bob, ...key });
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get('idempotent-replayed')).toBeNull();
    expect(bobs.body.id).not.toBe(first.body.id);
    expect((await server.api.post('/games', { seed: 5 }, key)).status).toBe(400);
  });

  it('a sign-in token that does not verify is 401, wherever it is sent', async () => {
    const alice = await signIn(server.api, 'alice-3');
    const forged = `${alice.authorization.slice(0, -4)}AAAA`;
    const { id } = await newGame(server.api);
    // A finished game's reads are public, but a sign-in token sent to them is checked all the same.
    const over = await newGame(server.api);
    expect((await server.api.post(`/games/${over.id}/resign`, undefined, over.auth)).status).toBe(200);
    expect((await server.api.get(`/games/${over.id}`)).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/games'],
      ['GET', `/games/${id}`],
      ['GET', `/games/${over.id}`],
      ['GET', `/games/${over.id}/events`],
      ['GET', `/games/${over.id}/replay`],
      ['GET', `/games/${over.id}/hint`],
      ['GET', `/games/${over.id}/analysis`],
      ['GET', '/me/games'],
      ['GET', '/me/stats'],
    ] as const) {
      const answer = await server.api.call(method, path, { headers: { authorization: forged } });
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('my games and my statistics', () => {
  it('list each player their own games, newest first, by status and page; stats after a win and a resignation', async () => {
    const alice = await signIn(server.api, 'alice-4');
    const bob = await signIn(server.api, 'bob-4');
    // Alice wins a known deal along its line, then resigns another; Bob has one game in play.
    const won = await server.api.post('/games', { deck: line.deck }, alice);
    for (const move of line.moves) await server.api.post(`/games/${won.body.id}/moves`, move, alice);
    const resigned = await server.api.post('/games', { seed: 9 }, alice);
    await server.api.post(`/games/${resigned.body.id}/moves`, { type: 'draw' }, alice);
    await server.api.post(`/games/${resigned.body.id}/resign`, undefined, alice);
    const bobs = await server.api.post('/games', { seed: 11 }, bob);
    await server.local.settled();

    const mine = await server.api.get('/me/games', alice);
    expect(mine.status).toBe(200);
    fits(responses.MyGames, mine.body);
    expect(mine.body.games.map((game: { id: string }) => game.id)).toEqual([resigned.body.id, won.body.id]);
    expect(mine.body.next).toBeNull();
    expect(mine.body.games[1]).toMatchObject({
      status: 'won',
      version: line.moves.length,
      moves: line.moves.length,
      score: { vegas: 208 },
      seed: null,
    });
    expect(mine.body.games[0]).toMatchObject({ status: 'resigned', version: 2, moves: 1, seed: 9 });
    const bobsList = await server.api.get('/me/games', bob);
    expect(bobsList.body.games).toHaveLength(1);
    expect(bobsList.body.games[0]).toMatchObject({ id: bobs.body.id, status: 'playing' });
    expect(bobsList.body.games[0]).not.toHaveProperty('seed');

    const wins = await server.api.get('/me/games?status=won', alice);
    expect(wins.body.games.map((game: { id: string }) => game.id)).toEqual([won.body.id]);
    expect((await server.api.get('/me/games?status=playing', alice)).body.games).toEqual([]);
    const page = await server.api.get('/me/games?limit=1', alice);
    expect(page.body.games.map((game: { id: string }) => game.id)).toEqual([resigned.body.id]);
    const rest = await server.api.get(`/me/games?limit=1&cursor=${page.body.next}`, alice);
    expect(rest.body.games.map((game: { id: string }) => game.id)).toEqual([won.body.id]);
    expect(rest.body.next).toBeNull();
    // A cursor no page gave: not a row's key, or a `next` with a character added.
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const forged of [cursor('game#x#y'), cursor('game#'), `${page.body.next}A`]) {
      const answer = await server.api.get(`/me/games?limit=1&cursor=${forged}`, alice);
      expect(answer.status, forged).toBe(400);
    }

    const stats = await server.api.get('/me/stats', alice);
    fits(responses.PlayerStats, stats.body);
    expect(stats.body).toMatchObject({
      started: 2,
      won: 1,
      resigned: 1,
      inPlay: 0,
      winRate: 0.5,
      currentStreak: 0,
      bestStreak: 1,
      bestVegas: 208,
      fewestMovesToWin: line.moves.length,
    });
    expect(Date.parse(stats.body.asOf)).toBeGreaterThanOrEqual(Date.parse(mine.body.games[0].updatedAt));
    expect((await server.api.get('/me/stats', bob)).body).toMatchObject({
      started: 1,
      inPlay: 1,
      winRate: null,
    });
  });

  it('page by status: each page of one status, its cursor to the next, none after the last', async () => {
    const alice = await signIn(server.api, 'alice-7');
    // Three resigned games between games of other statuses.
    const statuses = ['playing', 'resigned', 'resigned', 'playing', 'resigned', 'playing'];
    for (const [seed, status] of statuses.entries()) {
      const { id } = (await server.api.post('/games', { seed: 20 + seed }, alice)).body;
      if (status === 'resigned') await server.api.post(`/games/${id}/resign`, undefined, alice);
    }
    await server.local.settled();
    const all = (await server.api.get('/me/games', alice)).body.games as { id: string; status: string }[];
    expect(all).toHaveLength(statuses.length);
    const resigned = all.filter((game) => game.status === 'resigned').map((game) => game.id);
    expect(resigned).toHaveLength(3);

    const paged: string[] = [];
    let query = '/me/games?status=resigned&limit=1';
    // Bounded: a cursor that led back to a page already seen would otherwise never end.
    for (let pages = 0; pages < 10; pages++) {
      const page = await server.api.get(query, alice);
      expect(page.status).toBe(200);
      fits(responses.MyGames, page.body);
      expect(page.body.games).toHaveLength(1);
      paged.push(...page.body.games.map((game: { id: string }) => game.id));
      if (page.body.next === null) break;
      query = `/me/games?status=resigned&limit=1&cursor=${page.body.next}`;
    }
    expect(paged).toEqual(resigned);
  });

  it('need a sign-in token: none, or a game token, is 401; bad queries are 400', async () => {
    const { auth } = await newGame(server.api);
    expect((await server.api.get('/me/games')).status).toBe(401);
    expect((await server.api.get('/me/stats', auth)).status).toBe(401);
    const alice = await signIn(server.api, 'alice-5');
    for (const query of ['?status=lost', '?limit=0', '?limit=101', '?cursor=bm9wZQ', '?cursor=a%20b']) {
      expect((await server.api.get(`/me/games${query}`, alice)).status, query).toBe(400);
    }
    expect((await server.api.get('/me/stats', alice)).body).toMatchObject({ started: 0, asOf: null });
  });
});
