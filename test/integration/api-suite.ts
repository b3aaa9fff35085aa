import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  type Command,
  checkHistory,
  deal,
  deckFromSeed,
  fold,
  type GameEvent,
  HOUSE_RULES,
  toView,
  upcast,
} from '../../domain/index.js';
import * as responses from '../../functions/responseSchemas.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { type Answer, type Client, type Local, newGame } from '../support/local.js';

/** The API end to end, against a local runtime started by the caller (in one process, or a process per route). */
export function apiSuite(server: { api: Client; local: Local }): void {
  const line = fixtures.lines[0]!;

  describe('a whole game over HTTP', () => {
    it('wins a known deal along its winning line, then reveals it and refuses more actions', async () => {
      const { id, auth } = await newGame(server.api, { deck: line.deck });
      let last: any;
      for (const [i, move] of line.moves.entries()) {
        const answer = await server.api.post(`/games/${id}/moves`, move, auth);
        expect(answer.status, `move ${i}: ${answer.text}`).toBe(200);
        expect(answer.headers.get('etag')).toBe(`"${i + 1}"`);
        last = answer.body;
      }
      expect(last.status).toBe('won');
      expect(last.deck).toEqual(line.deck);
      expect(last.score.vegas).toBe(208);
      const more = await server.api.post(`/games/${id}/undo`, undefined, auth);
      expect(more.status).toBe(422);
      expect(more.body.rule).toBe('game-over');
      // A finished game is public to read, not to write.
      expect((await server.api.get(`/games/${id}`)).status).toBe(200);
      expect((await server.api.get(`/games/${id}/events?limit=5`)).body.events[0].data.deck).toEqual(
        line.deck,
      );
      expect((await server.api.post(`/games/${id}/resign`)).status).toBe(401);
    });

    it('accepts the 156-digit deal string for the same deal', async () => {
      const digits = line.deck
        .map(
          (code) =>
            `${String('A23456789TJQK'.indexOf(code[0]!) + 1).padStart(2, '0')}${'CDHS'.indexOf(code[1]!) + 1}`,
        )
        .join('');
      const { created } = await newGame(server.api, { deck: digits });
      expect(created.body.tableau[0].cards).toEqual([line.deck[0]]);
    });

    it('undo and redo through the API', async () => {
      const { id, auth } = await newGame(server.api);
      await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      const undone = await server.api.post(`/games/${id}/undo`, undefined, auth);
      expect(undone.body).toMatchObject({ version: 2, stock: { count: 24 }, canRedo: true, canUndo: false });
      const redone = await server.api.post(`/games/${id}/redo`, undefined, auth);
      expect(redone.body).toMatchObject({ version: 3, stock: { count: 21 }, canRedo: false });
      expect((await server.api.post(`/games/${id}/redo`, undefined, auth)).body.rule).toBe('nothing-to-redo');
    });

    it('resign reveals the deck and seed', async () => {
      const { id, auth } = await newGame(server.api, { seed: 77 });
      const resigned = await server.api.post(`/games/${id}/resign`, undefined, auth);
      expect(resigned.body).toMatchObject({ status: 'resigned', seed: 77 });
      expect(resigned.body.deck).toHaveLength(52);
    });

    it('?at=N gives the view as it was; a version not reached yet is 404', async () => {
      const { id, auth, created } = await newGame(server.api);
      await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      const at0 = await server.api.get(`/games/${id}?at=0`, auth);
      expect(at0.body).toEqual(
        created.body.token ? (({ token: _t, ...view }) => view)(created.body) : created.body,
      );
      // The view is version 0's; the ETag is the game's version, as on every answer about it.
      expect(at0.body.version).toBe(0);
      expect(at0.headers.get('etag')).toBe('"1"');
      expect((await server.api.get(`/games/${id}?at=9`, auth)).status).toBe(404);
      expect((await server.api.get(`/games/${id}?at=-1`, auth)).status).toBe(400);
    });

    it('pages the event log with after/limit, hiding the deal while in play', async () => {
      const { id, auth } = await newGame(server.api);
      for (let i = 0; i < 5; i++) await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      const first = await server.api.get(`/games/${id}/events?limit=2`, auth);
      expect(first.body.events.map((e: any) => e.version)).toEqual([0, 1]);
      expect(first.body.events[0].data).toEqual({ rules: HOUSE_RULES });
      expect(first.body.next).toBe(1);
      const second = await server.api.get(`/games/${id}/events?after=1&limit=10`, auth);
      expect(second.body.events.map((e: any) => e.version)).toEqual([2, 3, 4, 5]);
      expect(second.body.next).toBeNull();
      expect(second.body.events[0]).toMatchObject({ type: 'drawn', schema: 1, data: {} });
      expect(typeof second.body.events[0].at).toBe('string');
    });

    it('replay frames carry the event and the view after it', async () => {
      const { id, auth } = await newGame(server.api);
      for (let i = 0; i < 3; i++) await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      const replay = await server.api.get(`/games/${id}/replay?from=1&to=2`, auth);
      expect(replay.body.frames.map((f: any) => [f.version, f.event.type, f.view.stock.count])).toEqual([
        [1, 'drawn', 21],
        [2, 'drawn', 18],
      ]);
      const all = await server.api.get(`/games/${id}/replay`, auth);
      expect(all.body.frames).toHaveLength(4);
      expect((await server.api.get(`/games/${id}/replay?from=3&to=1`, auth)).status).toBe(400);
      // The wrong way round past the game's version too: the range is the mistake, not the version.
      const reversed = await server.api.get(`/games/${id}/replay?from=9&to=7`, auth);
      expect(reversed.status).toBe(400);
      expect(reversed.body).toMatchObject({ currentVersion: 3 });
      expect(reversed.body.detail).toBe('from (9) must not be after to (7); the game is at version 3.');
      expect((await server.api.get(`/games/${id}/replay?from=9&to=12`, auth)).status).toBe(404);
    });
  });

  describe('POST /replays', () => {
    it('checks a valid history, storing nothing', async () => {
      const answer = await server.api.post('/replays', { deck: line.deck, moves: line.moves });
      expect(answer.status).toBe(200);
      expect(answer.body.won).toBe(true);
      expect(answer.body.view.deck).toEqual(line.deck);
    });

    it('names the index and rule of the first illegal move', async () => {
      const moves = [...line.moves.slice(0, 3), { type: 'move', from: 't1', to: 'fS' }];
      const answer = await server.api.post('/replays', { deck: line.deck, moves });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ index: 3, status: 422 });
      expect(answer.body.rule).toBeDefined();
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
    });

    it('takes up to 256 KiB and refuses more with 413', async () => {
      const big = { seed: 1, moves: Array.from({ length: 20_000 }, () => ({ type: 'draw' })) };
      expect(JSON.stringify(big).length).toBeGreaterThan(256 * 1024);
      expect((await server.api.post('/replays', big)).status).toBe(413);
      const moves = Array.from({ length: 8 }, () => ({ type: 'draw' }));
      expect((await server.api.post('/replays', { seed: 1, moves })).status).toBe(200);
    });
  });

  describe('who may do what', () => {
    it('keeps no answer in a cache: a creation carries its token, a view its game in play, a problem too', async () => {
      const { id, auth, created } = await newGame(server.api);
      const answers = [
        created,
        await server.api.get(`/games/${id}`, auth),
        await server.api.get(`/games/${id}`),
      ];
      for (const answer of answers) {
        expect(answer.headers.get('cache-control'), String(answer.status)).toBe('no-store');
        expect(answer.headers.get('x-content-type-options'), String(answer.status)).toBe('nosniff');
      }
    });

    it('401 without a token, 403 with a wrong one, on every game route', async () => {
      const { id } = await newGame(server.api);
      const routes: [string, string, unknown?][] = [
        ['GET', `/games/${id}`],
        ['GET', `/games/${id}/events`],
        ['GET', `/games/${id}/replay`],
        ['POST', `/games/${id}/moves`, { type: 'draw' }],
        ['POST', `/games/${id}/undo`],
        ['POST', `/games/${id}/redo`],
        ['POST', `/games/${id}/resign`],
      ];
      for (const [method, path, body] of routes) {
        const options = body === undefined ? {} : { body };
        expect((await server.api.call(method, path, options)).status, `${method} ${path}`).toBe(401);
        const wrong = await server.api.call(method, path, {
          ...options,
          headers: { authorization: 'Bearer wrong' },
        });
        expect(wrong.status, `${method} ${path}`).toBe(403);
      }
      // A write without a token is 401 whatever else is wrong with it: its body, If-Match or key.
      for (const [path, body, headers] of [
        [`/games/${id}/moves`, { type: 'x' }, {}],
        [`/games/${id}/moves`, { type: 'draw' }, { 'if-match': '3' }],
        [`/games/${id}/undo`, { extra: 1 }, {}],
        [`/games/${id}/autoplay`, {}, { 'idempotency-key': 'a b' }],
      ] as const) {
        const refused = await server.api.call('POST', path, { body, headers });
        expect(refused.status, `${path} ${JSON.stringify(body)} ${JSON.stringify(headers)}`).toBe(401);
      }
      expect((await server.api.get('/games/nope', { authorization: 'Bearer x' })).status).toBe(404);
      // An id no game could have is an unknown game too, on reads and writes alike.
      for (const [method, path] of [
        ['GET', '/games/a_b'],
        ['GET', `/games/${'x'.repeat(65)}/events`],
        ['POST', '/games/a.b/moves'],
        ['POST', '/games/a_b/undo'],
        ['GET', '/games/a_b/hint'],
      ] as const) {
        const unknown = await server.api.call(method, path, {
          headers: { authorization: 'Bearer x' },
          ...(method === 'POST' ? { body: { type: 'draw' } } : {}),
        });
        expect(unknown.status, `${method} ${path}`).toBe(404);
        expect(unknown.body.type).toBe('/problems/not-found');
      }
      const nowhere = await server.api.call('DELETE', '/nowhere');
      expect(nowhere.status).toBe(404);
      expect(nowhere.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    });
  });

  describe('versions, concurrency and retries', () => {
    it('If-Match with a stale version is 412 with currentVersion; the right one passes', async () => {
      const { id, auth } = await newGame(server.api);
      await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
      const stale = await server.api.post(
        `/games/${id}/moves`,
        { type: 'draw' },
        { ...auth, 'if-match': '"0"' },
      );
      expect(stale.status).toBe(412);
      expect(stale.body.currentVersion).toBe(1);
      const fresh = await server.api.post(
        `/games/${id}/moves`,
        { type: 'draw' },
        { ...auth, 'if-match': '"1"' },
      );
      expect(fresh.status).toBe(200);
    });

    it('20 parallel writers: no lost or duplicated move, versions contiguous, a refold equals the served view', async () => {
      const { id, auth } = await newGame(server.api, { seed: 5, rules: { passes: null } });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.api.post(`/games/${id}/moves`, { type: i % 4 === 3 ? 'recycle' : 'draw' }, auth),
        ),
      );
      const ok = answers.filter((answer) => answer.status === 200);
      for (const answer of answers) expect([200, 409, 422]).toContain(answer.status);
      const versions = ok.map((answer) => answer.body.version).sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: ok.length }, (_, i) => i + 1));
      const log = await server.api.get(`/games/${id}/events?limit=1000`, auth);
      expect(log.body.events.map((e: any) => e.version)).toEqual(
        Array.from({ length: ok.length + 1 }, (_, i) => i),
      );
      const served = await server.api.get(`/games/${id}`, auth);
      // Refold the log with the deal (the resigned log reveals it) and compare with the view served before.
      const resigned = await server.api.post(`/games/${id}/resign`, undefined, auth);
      const full = await server.api.get(`/games/${id}/events?limit=1000`);
      const events = full.body.events.map((e: any) =>
        upcast({ type: e.type, schema: e.schema, data: e.data }),
      ) as GameEvent[];
      expect(toView(fold(events.slice(0, -1)), id)).toEqual(served.body);
      expect(resigned.status).toBe(200);
    });

    it('Idempotency-Key: a retried move returns the first answer and appends nothing, across snapshots', async () => {
      const { id, auth } = await newGame(server.api, { seed: 1, rules: { passes: null } });
      const headers = { ...auth, 'idempotency-key': 'move-1' };
      const first = await server.api.post(`/games/${id}/moves`, { type: 'draw' }, headers);
      const again = await server.api.post(`/games/${id}/moves`, { type: 'draw' }, headers);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect((await server.api.get(`/games/${id}`, auth)).body.version).toBe(1);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      // Still remembered 100 actions later, past three snapshots (every 32nd event holds the recent keys).
      let view = again.body;
      for (let i = 0; i < 100; i++) {
        const answer =
          i % 8 === 7
            ? await server.api.post(`/games/${id}/undo`, undefined, auth)
            : await server.api.post(
                `/games/${id}/moves`,
                { type: view.stock.count ? 'draw' : 'recycle' },
                auth,
              );
        expect(answer.status).toBe(200);
        view = answer.body;
      }
      expect(view.version).toBe(101);
      const late = await server.api.post(`/games/${id}/moves`, { type: 'draw' }, headers);
      expect(late.body).toEqual(first.body);
      expect((await server.api.get(`/games/${id}`, auth)).body.version).toBe(101);
    });

    it('Idempotency-Key on POST /games: the same game and token again', async () => {
      const headers = { 'idempotency-key': 'new-game-1-0123456789abcdef' };
      const first = await server.api.post('/games', { seed: 3 }, headers);
      const again = await server.api.post('/games', { seed: 3 }, headers);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect((await server.api.post('/games', { seed: 4 }, headers)).status).toBe(422);
    });
  });

  describe('a long game stays cheap', () => {
    it('folds correctly across snapshots (versions past several snapshot intervals)', async () => {
      const rules = { ...HOUSE_RULES, passes: null };
      const { id, auth } = await newGame(server.api, { seed: 11, rules: { passes: null } });
      const commands: Command[] = [];
      let view: any;
      for (let i = 0; i < 100; i++) {
        const command: Command =
          i % 9 === 8 ? { type: 'undo' } : view?.stock.count === 0 ? { type: 'recycle' } : { type: 'draw' };
        commands.push(command);
        const answer =
          command.type === 'undo'
            ? await server.api.post(`/games/${id}/undo`, undefined, auth)
            : await server.api.post(`/games/${id}/moves`, command, auth);
        view = answer.body;
      }
      expect(view.version).toBe(100);
      const expected = checkHistory(deal(deckFromSeed(11), 11, rules), commands);
      expect((await server.api.get(`/games/${id}`, auth)).body).toEqual(toView(expected.state, id));
      const at70 = checkHistory(deal(deckFromSeed(11), 11, rules), commands.slice(0, 70));
      expect((await server.api.get(`/games/${id}?at=70`, auth)).body).toEqual(toView(at70.state, id));
    });
  });

  describe('answers fit the published document', () => {
    it('views, event pages, replay frames, replay checks and problems: every field and header they carry is described', async () => {
      const document = (await server.api.get('/openapi.json')).body;
      const { id, auth, created } = await newGame(server.api, { seed: 12 });
      const game = '/games/{id}';
      /**
       * The body fits the schema with nothing left over (z.object drops a field it does not name, so
       * a field the document leaves out makes a difference), the status is one the operation lists,
       * and each header of these the answer carries is described for that status.
       */
      const fits = (method: string, path: string, schema: z.ZodMiniType, answer: Answer) => {
        const where = `${method} ${path} ${answer.status}`;
        const result = z.safeParse(schema, answer.body);
        expect(result.success, `${where}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
        expect(result.data, where).toEqual(answer.body);
        const described = document.paths[path]?.[method]?.responses?.[answer.status];
        expect(described, where).toBeDefined();
        const names = Object.keys(described.headers ?? {}).map((name) => name.toLowerCase());
        for (const name of ['etag', 'location', 'idempotent-replayed', 'www-authenticate', 'retry-after'])
          if (answer.headers.has(name)) expect(names, `${where}: ${name}`).toContain(name);
      };
      fits('post', '/games', responses.CreatedGame, created);
      fits('post', '/games', responses.ProblemDetails, await server.api.post('/games', '{'));
      fits(
        'post',
        '/games',
        responses.ProblemDetails,
        await server.api.post('/games', {}, { authorization: 'Bearer x.y.z' }),
      );
      fits(
        'post',
        `${game}/moves`,
        responses.View,
        await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth),
      );
      // An illegal move, and the same again under its key: the first answer, replayed.
      const keyed = { ...auth, 'idempotency-key': 'same-pile' };
      const illegal = { type: 'move', from: 't1', to: 't1' };
      const refused = await server.api.post(`/games/${id}/moves`, illegal, keyed);
      expect(refused.body.rule).toBe('same-pile');
      fits('post', `${game}/moves`, responses.ProblemDetails, refused);
      const again = await server.api.post(`/games/${id}/moves`, illegal, keyed);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      fits('post', `${game}/moves`, responses.ProblemDetails, again);
      const stale = await server.api.post(
        `/games/${id}/moves`,
        { type: 'draw' },
        { ...auth, 'if-match': '"0"' },
      );
      expect(stale.status).toBe(412);
      fits('post', `${game}/moves`, responses.ProblemDetails, stale);
      const tooLarge = await server.api.call('POST', `/games/${id}/moves`, {
        headers: auth,
        raw: JSON.stringify({ type: 'draw', pad: 'x'.repeat(17_000) }),
      });
      expect(tooLarge.status).toBe(413);
      fits('post', `${game}/moves`, responses.ProblemDetails, tooLarge);
      fits(
        'post',
        `${game}/redo`,
        responses.ProblemDetails,
        await server.api.post(`/games/${id}/redo`, undefined, auth),
      );
      fits('get', game, responses.ProblemDetails, await server.api.get(`/games/${id}`));
      fits('get', game, responses.ProblemDetails, await server.api.get(`/games/${id}?at=99`, auth));
      fits('get', `${game}/events`, responses.EventPage, await server.api.get(`/games/${id}/events`, auth));
      fits(
        'get',
        `${game}/replay`,
        responses.ReplayFrames,
        await server.api.get(`/games/${id}/replay`, auth),
      );
      fits(
        'post',
        '/replays',
        responses.ReplayResult,
        await server.api.post('/replays', { seed: 12, moves: [{ type: 'draw' }] }),
      );
      const badHistory = await server.api.post('/replays', { seed: 12, moves: [{ type: 'draw' }, illegal] });
      expect(badHistory.body).toMatchObject({ index: 1, move: illegal, rule: 'same-pile' });
      fits('post', '/replays', responses.ProblemDetails, badHistory);
      const daily = await server.api.get('/daily');
      fits('get', '/daily', responses.Daily, daily);
      fits(
        'get',
        '/daily',
        responses.ProblemDetails,
        await server.api.get('/daily', { authorization: 'Bearer x.y.z' }),
      );
      fits(
        'get',
        '/daily/{date}/leaderboard',
        responses.ProblemDetails,
        await server.api.get(`/daily/${daily.body.date}/leaderboard`, { authorization: 'Bearer x.y.z' }),
      );
      fits(
        'post',
        `${game}/resign`,
        responses.View,
        await server.api.post(`/games/${id}/resign`, undefined, auth),
      );
    });
  });
}
