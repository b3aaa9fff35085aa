import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  checkHistory,
  deal,
  deckFromSeed,
  MAX_ACTIONS,
  safeAutoplay,
  withDefaults,
} from '../../domain/index.js';
import { ERROR_BODY_LIMIT } from '../../functions/http/respond.js';
import { type Answer, type Client, type Local, newGame } from '../support/local.js';

/**
 * First positions of seeds 0..59 whose hints spend about the hint's whole node budget (385 to 420 ms
 * each on this machine, where seed 0's takes about 270 ms): a read sent 100 ms after them must not
 * wait for one to end. The hint's budget is in solver nodes, so the ratio holds on a busy machine too.
 */
const SLOW_HINTS = [52, 25, 46];

/** Hints on slow positions at once, and another player's read sent once they are solving. */
export async function readWhileHinting(api: Client) {
  const reader = await newGame(api, { seed: 1 });
  const games = await Promise.all(SLOW_HINTS.map((seed) => newGame(api, { seed })));
  const order: string[] = [];
  const hints = games.map(async (game) => {
    const answer = await api.get(`/games/${game.id}/hint`, game.auth);
    order.push('hint');
    return answer;
  });
  // Long enough for the hints to have loaded their games and begun to solve.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const read = await api.get(`/games/${reader.id}`, reader.auth);
  order.push('read');
  return { read, order, hints: await Promise.all(hints) };
}

/** A hint, or one cut short by its deadline on a busy machine: never a 500, never the store's fault. */
export const HINTED = ['hint', '503 /problems/busy'];
export const hinted = (answer: Answer): string =>
  answer.status === 200 ? 'hint' : `${answer.status} ${answer.body?.type ?? answer.text}`;

/**
 * What an outside probe found (issue "Hardening"), each held to docs/api.md over real HTTP, against
 * a local runtime started by the caller (in one process, or a process per route).
 */
export function hardeningSuite(server: { api: Client; local: Local }): void {
  const uuid = () => crypto.randomUUID();

  describe('deals the service chooses', () => {
    it('are not numbered: seed null, a deck no seed names, shown once the game ends', async () => {
      const decks = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const { id, auth, created } = await newGame(server.api, {});
        expect(created.body).not.toHaveProperty('seed');
        expect(created.body).not.toHaveProperty('deck');
        const events = await server.api.get(`/games/${id}/events`, auth);
        expect(events.body.events[0].data).not.toHaveProperty('seed');
        const resigned = await server.api.post(`/games/${id}/resign`, undefined, auth);
        expect(resigned.body.seed).toBeNull();
        expect(resigned.body.deck).toHaveLength(52);
        expect(new Set(resigned.body.deck).size).toBe(52);
        const dealt = await server.api.get(`/games/${id}/events?limit=1`);
        expect(dealt.body.events[0].data.seed).toBeNull();
        decks.add(resigned.body.deck.join(' '));
      }
      expect(decks.size).toBe(3);
    });

    it('a winnable deal is drawn afresh too, with seed null', async () => {
      const { id, auth } = await newGame(server.api, { winnable: true });
      const resigned = await server.api.post(`/games/${id}/resign`, undefined, auth);
      expect(resigned.body.seed).toBeNull();
      expect(resigned.body.deck).toHaveLength(52);
    });

    it('a numbered deal still shows its seed once it ends', async () => {
      const { id, auth } = await newGame(server.api, { seed: 4242 });
      expect((await server.api.post(`/games/${id}/resign`, undefined, auth)).body.seed).toBe(4242);
    });
  });

  describe('creation keys', () => {
    it('an anonymous creation key shorter than 22 characters is 400; nothing is created', async () => {
      const short = await server.api.post('/games', { seed: 1 }, { 'idempotency-key': 'a'.repeat(21) });
      expect(short.status).toBe(400);
      expect(short.body.detail).toMatch(/22/);
      const long = await server.api.post('/games', { seed: 1 }, { 'idempotency-key': 'a'.repeat(22) });
      expect(long.status).toBe(201);
    });

    it('a replayed creation says so with Idempotent-Replayed: true, and a winnable one is never dealt again', async () => {
      const headers = { 'idempotency-key': uuid() };
      const first = await server.api.post('/games', { winnable: true }, headers);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      for (let i = 0; i < 5; i++) {
        const again = await server.api.post('/games', { winnable: true }, headers);
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body).toEqual(first.body);
      }
    });
  });

  describe('a first answer stands', () => {
    it('an autoplay that changed nothing is still the answer to its key after the game moved on', async () => {
      // Seed 0, draw 1: nothing is safe to play home at the deal; after 11 draws an Ace tops the waste.
      const { id, auth } = await newGame(server.api, { seed: 0, rules: { draw: 1 } });
      const headers = { ...auth, 'idempotency-key': 'AP' };
      const first = await server.api.post(`/games/${id}/autoplay`, undefined, headers);
      expect(first.status).toBe(200);
      expect(first.body.version).toBe(0);
      for (let i = 0; i < 11; i++) await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      const drawn = checkHistory(
        deal(deckFromSeed(0), 0, withDefaults({ draw: 1 })),
        Array.from({ length: 11 }, () => ({ type: 'draw' }) as const),
      );
      expect(drawn.ok && safeAutoplay(drawn.state).length).toBe(1);
      const again = await server.api.post(`/games/${id}/autoplay`, undefined, headers);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await server.api.get(`/games/${id}`, auth)).body.version).toBe(11);
    });

    it("a key's first answer on one game is never given on another game", async () => {
      const key = { 'idempotency-key': uuid() };
      const a = await newGame(server.api, { seed: 1 });
      const refused = await server.api.post(
        `/games/${a.id}/moves`,
        { type: 'recycle' },
        { ...a.auth, ...key },
      );
      expect(refused.status).toBe(422);
      const b = await newGame(server.api, { seed: 1 });
      const drawn = await server.api.post(`/games/${b.id}/moves`, { type: 'draw' }, { ...b.auth, ...key });
      expect(drawn.status).toBe(200);
      expect(drawn.body.version).toBe(1);
      expect(drawn.headers.get('idempotent-replayed')).toBeNull();
      const recycled = await server.api.post(
        `/games/${b.id}/moves`,
        { type: 'recycle' },
        { ...b.auth, ...key },
      );
      expect(recycled.body.type).toBe('/problems/idempotency-key-reused');
    });

    it("a request is the same with a default left out or written: a move's count of 1, the house rules", async () => {
      // A refused move (or not: its first answer either way) under the key, then the same with count 1.
      const { id, auth } = await newGame(server.api, { seed: 1 });
      const headers = { ...auth, 'idempotency-key': uuid() };
      const first = await server.api.post(
        `/games/${id}/moves`,
        { type: 'move', from: 't1', to: 'foundation' },
        headers,
      );
      const again = await server.api.post(
        `/games/${id}/moves`,
        { type: 'move', from: 't1', to: 'foundation', count: 1 },
        headers,
      );
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const created = { 'idempotency-key': uuid() };
      const one = await server.api.post('/games', { seed: 7 }, created);
      expect(one.status).toBe(201);
      const same = await server.api.post(
        '/games',
        { seed: 7, rules: { draw: 3, passes: 3, foundationToTableau: true }, winnable: false },
        created,
      );
      expect(same.status).toBe(201);
      expect(same.headers.get('idempotent-replayed')).toBe('true');
      expect(same.body.id).toBe(one.body.id);
      const other = await server.api.post('/games', { seed: 7, rules: { draw: 1 } }, created);
      expect(other.body.type).toBe('/problems/idempotency-key-reused');
      // The key is as secret as the token its first answer holds: no error body says it.
      expect(JSON.stringify(other.body)).not.toContain(created['idempotency-key']);
    });

    it('a refused move keeps its answer under its key; the same key with another body is 422', async () => {
      const { id, auth } = await newGame(server.api, { seed: 1 });
      const headers = { ...auth, 'idempotency-key': uuid() };
      const first = await server.api.post(`/games/${id}/moves`, { type: 'recycle' }, headers);
      expect(first.status).toBe(422);
      const again = await server.api.post(`/games/${id}/moves`, { type: 'recycle' }, headers);
      expect(again.status).toBe(422);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const other = await server.api.post(`/games/${id}/moves`, { type: 'draw' }, headers);
      expect(other.body.type).toBe('/problems/idempotency-key-reused');
      // A 412 is not kept: the same key with a corrected If-Match goes through.
      const keyed = { ...auth, 'idempotency-key': uuid() };
      const stale = await server.api.post(
        `/games/${id}/moves`,
        { type: 'draw' },
        { ...keyed, 'if-match': '"9"' },
      );
      expect(stale.status).toBe(412);
      const fixed = await server.api.post(
        `/games/${id}/moves`,
        { type: 'draw' },
        { ...keyed, 'if-match': '"0"' },
      );
      expect(fixed.status).toBe(200);
    });
  });

  describe('If-Match, compared strongly', () => {
    it('W/"N" and an empty list match nothing, a list matches any member, * matches any existing game, garbage is 400', async () => {
      const { id, auth } = await newGame(server.api);
      const draw = (ifMatch: string) =>
        server.api.post(`/games/${id}/moves`, { type: 'draw' }, { ...auth, 'if-match': ifMatch });
      expect((await draw('W/"0"')).status).toBe(412);
      expect((await draw('"7", W/"0"')).status).toBe(412);
      expect((await draw('"abc"')).status).toBe(412);
      const listed = await draw('"5", "0"');
      expect(listed.status).toBe(200);
      expect(listed.body.version).toBe(1);
      expect((await draw(' "0" ,"1"')).status).toBe(200);
      expect((await draw('*')).status).toBe(200);
      for (const bad of ['3', '"1" "2"', 'W/3', '"3', '**', ', 3'])
        expect((await draw(bad)).status, bad).toBe(400);
      // A list of no tags (RFC 9110's #rule allows empty elements) matches no version.
      for (const none of ['', ',', ' , ,']) expect((await draw(none)).status, none).toBe(412);
      const unknown = await server.api.post(
        '/games/nope/moves',
        { type: 'draw' },
        { ...auth, 'if-match': '*' },
      );
      expect(unknown.status).toBe(404);
    });
  });

  describe('numbers in queries', () => {
    it('only plain decimal integers in range; anything else is 400', async () => {
      const { id, auth } = await newGame(server.api);
      await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      for (const query of [
        '?at=',
        '?at=%2B1',
        '?at=0x0',
        '?at=1e0',
        '?at=1.0',
        '?at=-1',
        '?at=-0',
        '?at=1&at=0',
        `?at=${MAX_ACTIONS + 1}`,
      ]) {
        expect((await server.api.get(`/games/${id}${query}`, auth)).status, query).toBe(400);
      }
      for (const query of [
        '?after=',
        '?after=-2',
        '?limit=0',
        '?limit=1001',
        '?limit= 5',
        '?after=0x1',
        '?after=-0',
        '?after=-01',
      ]) {
        expect((await server.api.get(`/games/${id}/events${query}`, auth)).status, query).toBe(400);
      }
      for (const query of ['?from=', '?to=%2B1', '?from=1.5']) {
        expect((await server.api.get(`/games/${id}/replay${query}`, auth)).status, query).toBe(400);
      }
      expect((await server.api.get(`/games/${id}?at=01`, auth)).body.version).toBe(1);
      expect((await server.api.get(`/games/${id}/events?after=-1`, auth)).body.events).toHaveLength(2);
    });

    it('?from= beyond the latest version is 404, as ?at= is', async () => {
      const { id, auth } = await newGame(server.api);
      expect((await server.api.get(`/games/${id}?at=1`, auth)).status).toBe(404);
      const beyond = await server.api.get(`/games/${id}/replay?from=1`, auth);
      expect(beyond.status).toBe(404);
      expect(beyond.body.currentVersion).toBe(0);
      expect((await server.api.get(`/games/${id}/replay?from=0`, auth)).status).toBe(200);
    });
  });

  describe('error bodies', () => {
    it('stay within 16 KiB for a 256 KiB body of bad moves, listing the first issues and how many there were', async () => {
      const moves = Array.from({ length: 15_000 }, () => ({ type: 'fly' }));
      const body = JSON.stringify({ seed: 1, moves });
      expect(body.length).toBeLessThan(256 * 1024);
      const answer = await server.api.call('POST', '/replays', { raw: body });
      expect(answer.status).toBe(400);
      expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(ERROR_BODY_LIMIT);
      expect(answer.body.issueCount).toBe(15_000);
      expect(answer.body.issues.length).toBeGreaterThan(10);
      expect(answer.body.detail).toMatch(/and \d+ more/);
    });
  });

  describe('game length', () => {
    it(`a history of more than ${MAX_ACTIONS} actions is refused at index ${MAX_ACTIONS} (game-too-long)`, async () => {
      const moves = Array.from({ length: MAX_ACTIONS + 1 }, (_, i) => ({
        type: i % 9 === 8 ? 'recycle' : 'draw',
      }));
      const rules = { passes: null };
      const answer = await server.api.post('/replays', { seed: 1, rules, moves });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ index: MAX_ACTIONS, rule: 'game-too-long' });
      const fits = await server.api.post('/replays', { seed: 1, rules, moves: moves.slice(0, MAX_ACTIONS) });
      expect(fits.status).toBe(200);
    });
  });

  describe('a request the HTTP parser refuses', () => {
    const raw = (bytes: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(server.local.url);
        const socket = connect(Number(port), hostname, () => socket.end(bytes));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });

    it('is a 400 in problem+json too (a raw non-ASCII target, a header line without a colon)', async () => {
      for (const request of [
        Buffer.from('GET /games/x?at=\u0661 HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8'),
        Buffer.from('GET /games HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n', 'latin1'),
      ]) {
        const answer = await raw(request);
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 400 /);
        expect(head.toLowerCase()).toContain('content-type: application/problem+json');
        expect(JSON.parse(body)).toMatchObject({ type: '/problems/malformed-request', status: 400 });
      }
    });
  });

  describe('the solver routes (docs/api.md, "The local runtime answers every request")', () => {
    it("never hold up another player's read, and each container takes one hint at a time", async () => {
      const { read, order, hints } = await readWhileHinting(server.api);
      expect(read.status).toBe(200);
      expect(order[0]).toBe('read');
      for (const answer of hints) expect(HINTED).toContain(hinted(answer));
    });
  });

  describe('the local runtime reads a body only up to its route limit', () => {
    const stream = (path: string, headers: Record<string, string>, chunk: Buffer, chunks: number) =>
      new Promise<{ status: number; sent: number }>((resolve, reject) => {
        const url = new URL(path, server.local.url);
        const request = httpRequest(url, { method: 'POST', headers });
        let sent = 0;
        request.on('response', (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0, sent });
        });
        request.on('error', (error) => (sent > 0 ? undefined : reject(error)));
        // Send slowly; an answer before the whole body has gone means the server stopped reading.
        const next = () => {
          if (sent >= chunks) return;
          sent++;
          request.write(chunk, () => setTimeout(next, 5));
        };
        next();
      });

    it('answers 413 while a chunked body is still coming, past 16 KiB', async () => {
      const answer = await stream(
        '/games',
        { 'transfer-encoding': 'chunked' },
        Buffer.alloc(4096, 32),
        2_000,
      );
      expect(answer.status).toBe(413);
      expect(answer.sent).toBeLessThan(2_000);
    });

    it('answers 413 at once for a Content-Length over the limit, before any of it is read', async () => {
      const answer = await stream(
        '/replays',
        { 'content-length': String(10 * 1024 * 1024) },
        Buffer.alloc(1024, 32),
        1,
      );
      expect(answer.status).toBe(413);
    });
  });
}
