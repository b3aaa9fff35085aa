import { gzipSync } from 'node:zlib';
import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deal,
  deckFromSeed,
  evolve,
  fold,
  HOUSE_RULES,
  MAX_ACTIONS,
  parseCard,
  toSnapshot,
} from '../../domain/index.js';
import { MAX_ATTEMPTS } from '../../functions/commands.js';
import { handler as analysis } from '../../functions/handlers/analysis.js';
import { handler as autocomplete } from '../../functions/handlers/autocomplete.js';
import { handler as autoplay } from '../../functions/handlers/autoplay.js';
import { handler as checkReplay } from '../../functions/handlers/checkReplay.js';
import { handler as createGame } from '../../functions/handlers/createGame.js';
import { handler as getGame } from '../../functions/handlers/getGame.js';
import { handler as hint } from '../../functions/handlers/hint.js';
import { handler as myGames } from '../../functions/handlers/myGames.js';
import { handler as openapi } from '../../functions/handlers/openapi.js';
import { handler as playMove } from '../../functions/handlers/playMove.js';
import { handler as resign } from '../../functions/handlers/resign.js';
import { handler as undo } from '../../functions/handlers/undo.js';
import { hashToken } from '../../functions/http/auth.js';
import { fingerprint } from '../../functions/http/preconditions.js';
import { SNAPSHOT_EVERY } from '../../functions/store/events.js';
import { gatewayEvent, parse } from '../support/gateway.js';

const ddb = mockClient(DynamoDBDocumentClient);
const TOKEN = 'secret-token';
const ID = 'game-1';
const auth = { authorization: `Bearer ${TOKEN}` };
const dealtItem = {
  pk: ID,
  sk: 0,
  type: 'dealt',
  schema: 1,
  at: '2026-01-01T00:00:00.000Z',
  data: deal(deckFromSeed(1), 1, HOUSE_RULES).data,
  tokenHash: hashToken(TOKEN),
};
const drawnItem = { pk: ID, sk: 1, type: 'drawn', schema: 1, at: '2026-01-01T00:00:01.000Z', data: {} };
/** A snapshot item's payload: the game after `version` draws and recycles on unlimited passes. */
const snapshotOf = (version: number, keys: readonly object[] = []) => {
  let state = fold([deal(deckFromSeed(1), 1, { ...HOUSE_RULES, passes: null })]);
  while (state.version < version) {
    state = evolve(
      state,
      state.board.stock.length ? { type: 'drawn', data: {} } : { type: 'recycled', data: {} },
    );
  }
  return gzipSync(JSON.stringify({ state: toSnapshot(state), keys }));
};
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => from - i);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });
const throttled = () => new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });

const move = (body: unknown, headers: Record<string, string> = auth) =>
  playMove(
    gatewayEvent({ method: 'POST', path: `/games/${ID}/moves`, pathParameters: { id: ID }, headers, body }),
  );

beforeAll(() => {
  process.env.TABLE_NAME = 'test-table';
  process.env.LOG_LEVEL = 'SILENT';
});
afterAll(() => ddb.restore());
beforeEach(() => {
  ddb.reset();
  ddb.on(QueryCommand).resolves({ Items: [dealtItem] });
  ddb.on(PutCommand).resolves({});
  ddb.on(GetCommand).resolves({});
});

const puts = () => ddb.commandCalls(PutCommand);

describe('POST /games', () => {
  it('201 with Location, ETag "0", a token, and the deal written with a condition', async () => {
    const response = await createGame(gatewayEvent({ method: 'POST', path: '/games', body: { seed: 1 } }));
    expect(response.statusCode).toBe(201);
    const body = parse(response);
    expect(response.headers).toMatchObject({ location: `/games/${body.id}`, etag: '"0"' });
    expect(body.token).toMatch(/^[\w-]{43}$/);
    expect(puts()).toHaveLength(1);
    const input = puts()[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(input.Item).toMatchObject({
      sk: 0,
      events: [{ type: 'dealt', schema: 1 }],
      tokenHash: hashToken(body.token),
    });
    expect(JSON.stringify(input.Item)).not.toContain(body.token);
  });

  it('400 for malformed JSON, a schema failure, or both seed and deck; nothing written', async () => {
    for (const [body, says] of [
      ['{', 'not valid JSON'],
      [{ seed: -1 }, 'seed: must be at least 0'],
      [{ seed: 1, deck: '0'.repeat(156) }, 'give a seed or a deck, not both'],
      [{ rules: { draw: 2 } }, 'rules.draw: must be 1 or 3'],
      [{ extra: 1 }, 'has no field "extra"'],
      [{ deck: ['AS'] }, 'deck: must have exactly 52 items'],
    ] as const) {
      const response = await createGame(gatewayEvent({ method: 'POST', path: '/games', body }));
      expect(response.statusCode).toBe(400);
      expect(response.headers?.['content-type']).toMatch(/^application\/problem\+json/);
      expect(parse(response).detail).toContain(says);
    }
    expect(puts()).toHaveLength(0);
  });

  it('rules.passes: any whole number from 1, however large, or null; 400 for 0, a fraction or beyond 2^53 - 1', async () => {
    for (const passes of [1, 1_000_001, Number.MAX_SAFE_INTEGER, null]) {
      ddb.resetHistory();
      const response = await createGame(
        gatewayEvent({ method: 'POST', path: '/games', body: { seed: 1, rules: { passes } } }),
      );
      expect(response.statusCode, String(passes)).toBe(201);
      expect(parse(response).rules.passes).toBe(passes);
      expect(puts()).toHaveLength(1);
    }
    ddb.resetHistory();
    for (const passes of [0, -1, 1.5, 2 ** 53, '3']) {
      const response = await createGame(
        gatewayEvent({ method: 'POST', path: '/games', body: { seed: 1, rules: { passes } } }),
      );
      expect(response.statusCode, String(passes)).toBe(400);
    }
    expect(puts()).toHaveLength(0);
  });

  it('401 with an Authorization that is no sign-in token (a game token, another scheme, a JWT that does not verify); nothing written', async () => {
    for (const authorization of [
      `Bearer ${TOKEN}`,
      'Basic YWxpY2U6c2VjcmV0',
      'Bearer',
      // A JWE's five parts, and a JWS with padding: meant as sign-in tokens, refused as such.
      'Bearer eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d',
      'Bearer eyJhbGciOiJFUzI1NiJ9.e30=.c2ln',
    ]) {
      const response = await createGame(
        gatewayEvent({ method: 'POST', path: '/games', body: {}, headers: { authorization } }),
      );
      expect(response.statusCode, authorization).toBe(401);
    }
    expect(puts()).toHaveLength(0);
  });

  it('413 for a body over 16 KiB', async () => {
    const response = await createGame(
      gatewayEvent({ method: 'POST', path: '/games', body: ' '.repeat(17 * 1024) }),
    );
    expect(response.statusCode).toBe(413);
  });

  it('503 with Retry-After when the store is throttled', async () => {
    ddb.on(PutCommand).rejects(throttled());
    const response = await createGame(gatewayEvent({ method: 'POST', path: '/games', body: {} }));
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
  });
});

describe('POST /games/{id}/moves', () => {
  it('200 with the new view and ETag; appends version 1 with a condition', async () => {
    const response = await move({ type: 'draw' });
    expect(response.statusCode).toBe(200);
    expect(response.headers?.etag).toBe('"1"');
    expect(parse(response)).toMatchObject({ version: 1, stock: { count: 21 } });
    const input = puts()[0]!.args[0].input;
    expect(input.Item).toMatchObject({ pk: ID, sk: 1, events: [{ type: 'drawn', schema: 1, data: {} }] });
    expect(input.ConditionExpression).toBe('attribute_not_exists(pk)');
    const query = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query).toMatchObject({ ConsistentRead: true, ScanIndexForward: false });
  });

  it('401 without a token, 403 with a wrong one, 404 for an unknown game; nothing appended', async () => {
    expect((await move({ type: 'draw' }, {})).statusCode).toBe(401);
    expect((await move({ type: 'draw' }, { authorization: 'Bearer nope' })).statusCode).toBe(403);
    // Dots make it a JWT attempt, whatever its form: 401 unless it verifies, never a game token.
    expect((await move({ type: 'draw' }, { authorization: 'Bearer a.b.c.d.e' })).statusCode).toBe(401);
    ddb.on(QueryCommand).resolves({ Items: [] });
    expect((await move({ type: 'draw' })).statusCode).toBe(404);
    expect(puts()).toHaveLength(0);
  });

  it('422 for an illegal move, naming the rule; nothing appended', async () => {
    const response = await move({ type: 'recycle' });
    expect(response.statusCode).toBe(422);
    expect(parse(response)).toMatchObject({
      rule: 'recycle-needs-empty-stock',
      status: 422,
      currentVersion: 0,
    });
    expect(response.headers?.etag).toBe('"0"');
    expect(puts()).toHaveLength(0);
  });

  it('400 for a move that fails the schema, saying what the field takes', async () => {
    for (const [body, says] of [
      [{ type: 'fly' }, 'type: must be "draw" or "recycle" or "move"'],
      [{ type: 'move', from: 't9', to: 't1' }, 'from: must be "waste" or "t1"'],
      [{ type: 'move', from: 't1', to: 't2', count: 0 }, 'count: must be at least 1'],
      [{ type: 'move', from: 't1', to: 't2', count: 14 }, 'count: must be at most 13'],
      [{ type: 'move', from: 't1', to: 't2', count: '2' }, 'count: must be a number'],
      [{ type: 'draw', cards: 3 }, '(root): has no field "cards"'],
    ] as const) {
      const response = await move(body);
      expect(response.statusCode).toBe(400);
      expect(parse(response).detail).toContain(says);
    }
    // Both bounds zod finds are said in words, the safe-integer range and the field's own: two issues.
    const huge = parse(await move({ type: 'move', from: 't1', to: 't2', count: 1e308 }));
    expect(huge.issues.filter((issue: { path: string }) => issue.path === 'count')).toHaveLength(2);
    expect(huge.detail).not.toMatch(/Invalid input/);
  });

  it('412 when If-Match names another version; nothing appended', async () => {
    const response = await move({ type: 'draw' }, { ...auth, 'if-match': '"5"' });
    expect(response.statusCode).toBe(412);
    expect(parse(response)).toMatchObject({ currentVersion: 0 });
    expect(puts()).toHaveLength(0);
  });

  it('a lost race is decided again on the new state', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [dealtItem] })
      .resolves({ Items: [drawnItem, dealtItem] });
    ddb.on(PutCommand).rejectsOnce(conditionFailed()).resolves({});
    const response = await move({ type: 'draw' });
    expect(response.statusCode).toBe(200);
    expect(parse(response).version).toBe(2);
    expect(puts().map((call) => call.args[0].input.Item?.sk)).toEqual([1, 2]);
  });

  it('a lost race under If-Match is a 412: the game is no longer at a version it names', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [dealtItem] })
      .resolves({ Items: [drawnItem, dealtItem] });
    ddb.on(PutCommand).rejects(conditionFailed());
    const response = await move({ type: 'draw' }, { ...auth, 'if-match': '"0"' });
    expect(response.statusCode).toBe(412);
    expect(parse(response).currentVersion).toBe(1);
  });

  it(`409 after ${MAX_ATTEMPTS} lost races`, async () => {
    ddb.on(PutCommand).rejects(conditionFailed());
    const response = await move({ type: 'draw' });
    expect(response.statusCode).toBe(409);
    expect(parse(response)).toHaveProperty('currentVersion', 0);
    expect(response.headers?.etag).toBe('"0"');
    expect(puts()).toHaveLength(MAX_ATTEMPTS);
  });

  it('503 with Retry-After on throttling, timeouts or an unreachable store; nothing appended', async () => {
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    for (const fault of [throttled(), timeout, refused]) {
      ddb.on(QueryCommand).rejects(fault);
      const response = await move({ type: 'draw' });
      expect(response.statusCode).toBe(503);
      expect(response.headers?.['retry-after']).toBeDefined();
    }
    expect(puts()).toHaveLength(0);
  });

  it('503 when the append itself is throttled', async () => {
    ddb.on(PutCommand).rejects(throttled());
    expect((await move({ type: 'draw' })).statusCode).toBe(503);
  });

  it('a put that landed although its attempt timed out (the SDK retried it) counts as written, once', async () => {
    // The SDK's retry of our own put finds the item there: the conditional check fails, but the item
    // carries this write's id, so the move is answered as written, not decided again on top of itself.
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(GetCommand).callsFake(() => ({ Item: puts().at(-1)!.args[0].input.Item }));
    const response = await move({ type: 'draw' });
    expect(response.statusCode).toBe(200);
    expect(parse(response).version).toBe(1);
    expect(puts()).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
  });

  it("a racing writer's item at that version is a lost race, even for the same move", async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [dealtItem] })
      .resolves({ Items: [{ ...drawnItem, w: 'theirs' }, dealtItem] });
    ddb.on(PutCommand).rejectsOnce(conditionFailed()).resolves({});
    ddb.on(GetCommand).resolves({ Item: { ...drawnItem, w: 'theirs' } });
    const response = await move({ type: 'draw' });
    expect(parse(response).version).toBe(2);
    expect(puts().map((call) => call.args[0].input.Item?.sk)).toEqual([1, 2]);
  });

  it('a keyed retry answers from what its load read when its first answer lies above the snapshot: one Query, as the move', async () => {
    // The key took version 6,001, above the snapshot at 6,000, and ten actions followed.
    const snapshot = { ...drawnItem, sk: 6000, snap: snapshotOf(6000), tokenHash: hashToken(TOKEN) };
    const fp = fingerprint('playMove', { type: 'draw' });
    const keyed = { ...drawnItem, sk: 6001, idem: 'k-6001', fp };
    ddb.on(QueryCommand).resolves({
      Items: [...range(6011, 6002).map((sk) => ({ ...drawnItem, sk })), keyed, snapshot],
    });
    const again = await move({ type: 'draw' }, { ...auth, 'idempotency-key': 'k-6001' });
    expect(again.statusCode).toBe(200);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    expect(parse(again).version).toBe(6001);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(puts()).toHaveLength(0);
  });

  it('a keyed retry whose first answer lies below the snapshot loads it through the snapshot below: never the whole log', async () => {
    // A long game: the key took version 6,001, and ten actions followed, past the snapshot at 6,008.
    const snapshotAt = (version: number) =>
      ({ ...drawnItem, sk: version, snap: snapshotOf(version), tokenHash: hashToken(TOKEN) }) as Record<
        string,
        unknown
      >;
    const fp = fingerprint('playMove', { type: 'draw' });
    const keyed = { ...drawnItem, sk: 6001, idem: 'k-6001', fp };
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, number> }) => {
      const upTo = input.ExpressionAttributeValues[':upTo'];
      if (upTo === undefined) {
        const snapshot = {
          ...snapshotAt(6008),
          snap: snapshotOf(6008, [{ key: 'k-6001', fingerprint: fp, version: 6001 }]),
        };
        return { Items: [...range(6011, 6009).map((sk) => ({ ...drawnItem, sk })), snapshot] };
      }
      return { Items: [keyed, snapshotAt(6000)] };
    });
    const again = await move({ type: 'draw' }, { ...auth, 'idempotency-key': 'k-6001' });
    expect(again.statusCode).toBe(200);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    expect(parse(again).version).toBe(6001);
    expect(puts()).toHaveLength(0);
    const queries = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries).toHaveLength(2);
    for (const query of queries) expect(query.Limit).toBeLessThanOrEqual(SNAPSHOT_EVERY + 1);
    expect(queries[1]!.KeyConditionExpression).toContain('sk <= :upTo');
    expect(queries[1]!.ExpressionAttributeValues).toMatchObject({ ':upTo': 6001 });
  });

  it('Idempotency-Key: the same request returns the first answer and appends nothing', async () => {
    ddb.on(QueryCommand).resolves({ Items: [{ ...drawnItem, idem: 'k1', fp: undefined }, dealtItem] });
    const first = await move({ type: 'draw' }, { ...auth, 'idempotency-key': 'k0' });
    expect(first.statusCode).toBe(200);
    expect(puts()[0]!.args[0].input.Item).toMatchObject({ idem: 'k0' });
    const fp = puts()[0]!.args[0].input.Item?.fp;
    ddb.reset();
    ddb.on(QueryCommand).resolves({ Items: [{ ...drawnItem, sk: 2, idem: 'k0', fp }, drawnItem, dealtItem] });
    const again = await move({ type: 'draw' }, { ...auth, 'idempotency-key': 'k0' });
    expect(again.statusCode).toBe(200);
    expect(parse(again).version).toBe(2);
    expect(puts()).toHaveLength(0);
    const other = await move({ type: 'recycle' }, { ...auth, 'idempotency-key': 'k0' });
    expect(other.statusCode).toBe(422);
    expect(parse(other).type).toBe('/problems/idempotency-key-reused');
    expect((await move({ type: 'draw' }, { ...auth, 'idempotency-key': 'bad key' })).statusCode).toBe(400);
  });
});

describe('POST /games/{id}/autoplay', () => {
  it('appends every safe card home as one commit: one conditional put holding all its events', async () => {
    // A deal whose seven face-up cards are the four aces and three twos: seven safe moves home.
    const deck = deckFromSeed(1);
    const tops = ['AC', 'AD', 'AH', 'AS', '2C', '2D', '2H'].map((code) => parseCard(code)!);
    [0, 7, 13, 18, 22, 25, 27].forEach((at, i) => {
      const from = deck.indexOf(tops[i]!);
      [deck[at], deck[from]] = [deck[from]!, deck[at]!];
    });
    ddb.on(QueryCommand).resolves({ Items: [{ ...dealtItem, data: deal(deck, null, HOUSE_RULES).data }] });
    ddb.on(PutCommand).resolves({});
    const answer = await autoplay(
      gatewayEvent({
        method: 'POST',
        path: `/games/${ID}/autoplay`,
        pathParameters: { id: ID },
        headers: auth,
      }),
    );
    expect(answer.statusCode).toBe(200);
    expect(parse(answer).version).toBe(7);
    expect(puts()).toHaveLength(1);
    const item = puts()[0]!.args[0].input.Item!;
    expect(item).toMatchObject({ pk: ID, sk: 1 });
    expect(item.events.map((event: { type: string }) => event.type)).toEqual(Array(7).fill('moved'));
    expect(puts()[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(pk)');
  });
});

describe(`a game at ${MAX_ACTIONS} actions`, () => {
  it('refuses every write with rule game-too-long, autoplay and autocomplete too; nothing appended', async () => {
    const atLimit = {
      ...drawnItem,
      sk: MAX_ACTIONS,
      snap: snapshotOf(MAX_ACTIONS),
      tokenHash: hashToken(TOKEN),
    } as Record<string, unknown>;
    ddb.on(QueryCommand).resolves({ Items: [atLimit] });
    const write = (handler: typeof undo, route: string) =>
      handler(
        gatewayEvent({
          method: 'POST',
          path: `/games/${ID}/${route}`,
          pathParameters: { id: ID },
          headers: auth,
        }),
      );
    for (const answer of [
      await move({ type: 'draw' }),
      await write(undo, 'undo'),
      await write(resign, 'resign'),
      await write(autoplay, 'autoplay'),
      await write(autocomplete, 'autocomplete'),
    ]) {
      expect(answer.statusCode).toBe(422);
      expect(parse(answer)).toMatchObject({ rule: 'game-too-long', currentVersion: MAX_ACTIONS });
    }
    expect(puts()).toHaveLength(0);
    // Nothing to hint at either: every move would be refused.
    const hinted = await hint(
      gatewayEvent({ path: `/games/${ID}/hint`, pathParameters: { id: ID }, headers: auth }),
    );
    expect(hinted.statusCode).toBe(200);
    expect(parse(hinted).move).toBeNull();
    expect(parse(hinted).reason).toMatch(/10000 actions/);
  });
});

describe('every answer about a game carries its version as ETag', () => {
  it('refusals too: not provable, in play, a reused key, a version not reached', async () => {
    const event = (path: string, method = 'POST', headers = auth) =>
      gatewayEvent({ method, path: `/games/${ID}/${path}`, pathParameters: { id: ID }, headers });
    const answers = [
      await autocomplete(event('autocomplete')),
      await analysis(event('analysis', 'GET')),
      await getGame({ ...event('', 'GET'), queryStringParameters: { at: '5' } }),
    ];
    ddb.on(QueryCommand).resolves({
      Items: [{ ...drawnItem, idem: 'k1', fp: fingerprint('playMove', { type: 'draw' }) }, dealtItem],
    });
    answers.push(await move({ type: 'recycle' }, { ...auth, 'idempotency-key': 'k1' }));
    expect(answers.map((answer) => answer.statusCode)).toEqual([422, 422, 404, 422]);
    const versions = [0, 0, 0, 1];
    answers.forEach((answer, i) => {
      expect(answer.headers?.etag, answer.body).toBe(`"${versions[i]}"`);
      expect(parse(answer).currentVersion).toBe(versions[i]);
    });
  });
});

describe('undo, resign and reads', () => {
  it('undo with nothing to undo is 422', async () => {
    const response = await undo(gatewayEvent({ method: 'POST', pathParameters: { id: ID }, headers: auth }));
    expect(response.statusCode).toBe(422);
    expect(parse(response).rule).toBe('nothing-to-undo');
  });

  it('resign reveals the deal; the finished game is then public to read', async () => {
    const resigned = await resign(
      gatewayEvent({ method: 'POST', pathParameters: { id: ID }, headers: auth }),
    );
    expect(resigned.statusCode).toBe(200);
    expect(parse(resigned)).toMatchObject({ status: 'resigned', seed: 1 });
    ddb
      .on(QueryCommand)
      .resolves({ Items: [{ pk: ID, sk: 1, type: 'resigned', schema: 1, at: '', data: {} }, dealtItem] });
    const read = await getGame(gatewayEvent({ pathParameters: { id: ID } }));
    expect(read.statusCode).toBe(200);
    expect(parse(read).deck).toHaveLength(52);
  });

  it('a game in play is not readable without its token', async () => {
    expect((await getGame(gatewayEvent({ pathParameters: { id: ID } }))).statusCode).toBe(401);
    expect(
      (await getGame(gatewayEvent({ pathParameters: { id: ID }, query: { at: 'x' }, headers: auth })))
        .statusCode,
    ).toBe(400);
  });

  it('an unknown game is 404 for reads as well', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    expect((await getGame(gatewayEvent({ pathParameters: { id: 'nope' }, headers: auth }))).statusCode).toBe(
      404,
    );
  });
});

describe("a player's routes", () => {
  it('are 401 without a sign-in token, whatever else is wrong with the request', async () => {
    const response = await myGames(
      gatewayEvent({ path: '/me/games', query: { limit: '0', status: 'lost' } }),
    );
    expect(response.statusCode).toBe(401);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});

describe('stateless routes', () => {
  it('POST /replays checks an Idempotency-Key like any POST: 400 when malformed', async () => {
    const replay = (key: string) =>
      checkReplay(
        gatewayEvent({
          method: 'POST',
          path: '/replays',
          body: { seed: 1, moves: [] },
          headers: { 'idempotency-key': key },
        }),
      );
    expect((await replay('a b c')).statusCode).toBe(400);
    expect((await replay('k'.repeat(65))).statusCode).toBe(400);
    expect((await replay('k-1')).statusCode).toBe(200);
  });

  it('POST /replays touches no table', async () => {
    const response = await checkReplay(
      gatewayEvent({ method: 'POST', body: { seed: 1, moves: [{ type: 'draw' }, { type: 'recycle' }] } }),
    );
    expect(response.statusCode).toBe(422);
    expect(parse(response)).toMatchObject({ index: 1, rule: 'recycle-needs-empty-stock' });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('GET /openapi.json describes every route', async () => {
    const doc = parse(await openapi(gatewayEvent({ path: '/openapi.json' })));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/games/{id}/moves');
    expect(doc.components.schemas.Move).toBeDefined();
  });
});

describe('creation under an Idempotency-Key', () => {
  it('claims the key first; a retry gets the same game and token', async () => {
    const first = await createGame(
      gatewayEvent({
        method: 'POST',
        body: { seed: 9 },
        headers: { 'idempotency-key': 'create-1-0123456789abcdefghij' },
      }),
    );
    expect(first.statusCode).toBe(201);
    const [record, game] = puts().map((call) => call.args[0].input.Item!);
    expect(record!.pk).toMatch(/^idem#/);
    expect(JSON.stringify(record)).not.toContain(parse(first).token);
    expect(JSON.stringify(record)).not.toContain('create-1');
    expect(game!.sk).toBe(0);
    ddb.reset();
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(GetCommand).resolves({ Item: record });
    const again = await createGame(
      gatewayEvent({
        method: 'POST',
        body: { seed: 9 },
        headers: { 'idempotency-key': 'create-1-0123456789abcdefghij' },
      }),
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
    expect(parse(again)).toEqual(parse(first));
    // The retry looked its key up first, and claimed nothing: only the deal's put (a no-op) followed.
    expect(ddb.calls()[0]!.args[0]).toBeInstanceOf(GetCommand);
    expect(puts().map((call) => call.args[0].input.Item?.pk)).toEqual([game!.pk]);
    const other = await createGame(
      gatewayEvent({
        method: 'POST',
        body: { seed: 10 },
        headers: { 'idempotency-key': 'create-1-0123456789abcdefghij' },
      }),
    );
    expect(other.statusCode).toBe(422);
  });
});
