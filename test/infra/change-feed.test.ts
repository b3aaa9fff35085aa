import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../domain/index.js';
import { ENDPOINT_ENV } from '../../functions/routes.js';
import { keepDailyDeal } from '../../functions/store/daily.js';
import { TIME_SCALE_ENV } from '../../functions/timeScale.js';
import { type Runtime, startRuntime } from '../../infra/local/runtime.js';
import { startLocalStore } from '../../infra/local/store.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { type Client, client, newGame } from '../support/local.js';
import { slowStore } from '../support/slow-store.js';

/**
 * The local change feed is what the store holds (docs/architecture.md): a write reaches the read
 * models whatever became of its answer, and a runtime killed before delivering catches up on its
 * next start on the same `--data` folder.
 */

const signedIn = async (api: Client, player: string) => ({
  authorization: `Bearer ${(await api.post('/dev/tokens', { player })).body.token}`,
});

/** A runtime on a store behind a pass-through that can hold its writes back (../support/slow-store.ts). */
async function behindSlowStore() {
  process.env.LOG_LEVEL = 'SILENT';
  const store = await startLocalStore();
  const slow = await slowStore(store.endpoint);
  process.env[ENDPOINT_ENV] = slow.endpoint;
  // The runtime gives the variable back as it found it when it stops.
  const runtime = await startRuntime({ port: 0 });
  return {
    slow,
    runtime,
    api: client(runtime.url),
    /** Stops the store and the pass-through (and the runtime, unless a test has stopped it). */
    close: async (runtimeStopped = false) => {
      if (!runtimeStopped) await runtime.stop();
      delete process.env[ENDPOINT_ENV];
      await slow.close();
      await store.close();
    },
  };
}

describe('a write whose answer was lost', () => {
  let slow: Awaited<ReturnType<typeof slowStore>>;
  let runtime: Runtime;
  let api: Client;
  let close: (runtimeStopped?: boolean) => Promise<void>;
  beforeAll(async () => {
    ({ slow, runtime, api, close } = await behindSlowStore());
  });
  afterAll(() => close?.());

  it('still reaches the read models when the store wrote it after the function gave up (503)', async () => {
    const player = await signedIn(api, 'slow-store-player');
    const game = await newGame(api, { seed: 3 });
    const mine = await api.call('POST', '/games', { body: { seed: 5 }, headers: player });
    expect(mine.status).toBe(201);
    const id = mine.body.id as string;
    // The put reaches the store only after the request's 2.5 s store budget (as in AWS, unscaled:
    // the route runs in this process): the answer is a 503, and the store then writes it.
    const scale = process.env[TIME_SCALE_ENV];
    process.env[TIME_SCALE_ENV] = '1';
    slow.control.putDelayMs = 3_000;
    const resigned = await api.post(`/games/${id}/resign`, undefined, player);
    slow.control.putDelayMs = 0;
    process.env[TIME_SCALE_ENV] = scale;
    expect(resigned.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await runtime.settled();
    expect((await api.get(`/games/${id}`)).body.status).toBe('resigned');
    const row = (await api.get('/me/games', player)).body.games[0];
    expect(row).toMatchObject({ id, status: 'resigned', version: 1 });
    expect(game.id).not.toBe(id);
    // Every record was delivered and nothing is held for it any more.
    expect(runtime.backlog()).toEqual({ writes: 0, games: 0 });
  });

  it("deals a daily game whose deal never landed when the player's keyed call is retried", async () => {
    await keepDailyDeal(dayOf(Date.now()), fixtures.lines[0]!.deck, new Date().toISOString());
    const player = { ...(await signedIn(api, 'lost-deal-player')), 'idempotency-key': crypto.randomUUID() };
    // The game's deal (a commit: it holds events) fails every attempt; the claim and the key's record land.
    slow.control.fails = (body) => body.includes('"events"');
    const first = await api.post('/daily/games', undefined, player);
    slow.control.fails = undefined;
    expect(first.status).toBe(503);
    const again = await api.post('/daily/games', undefined, player);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get(`/games/${again.body.id}`, player)).status).toBe(200);
  });

  it('answers two requests sent at once under one key as it answers their retries: the write that landed is the first answer', async () => {
    const game = await newGame(api, { seed: 42 }); // an empty waste: a move from it is refused
    const headers = { ...game.auth, 'idempotency-key': 'one-key-two-requests' };
    const refusedMove = { type: 'move', from: 'waste', to: 't1' };
    // The refusal's record reaches the store only after the draw sent under the same key has landed.
    slow.control.delays = (body) => body.includes('answer#');
    slow.control.putDelayMs = 1_000;
    const move = api.post(`/games/${game.id}/moves`, refusedMove, headers);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const draw = await api.post(`/games/${game.id}/moves`, { type: 'draw' }, headers);
    const first = await move;
    slow.control.putDelayMs = 0;
    slow.control.delays = undefined;
    expect(draw.status).toBe(200);
    // The draw's events are the key's first answer: the move is another request under it, now
    // and on its retry.
    expect([first.status, first.body.type]).toEqual([422, '/problems/idempotency-key-reused']);
    const retried = await api.post(`/games/${game.id}/moves`, refusedMove, headers);
    expect([retried.status, retried.body.type]).toEqual([first.status, first.body.type]);

    // A game and the day's game asked at once under one key: one of them has it, each retry is
    // answered as it was.
    for (let i = 0; i < 3; i++) {
      const player = {
        ...(await signedIn(api, `one-key-player-${i}`)),
        'idempotency-key': crypto.randomUUID(),
      };
      const ask = () => [
        api.post('/games', { seed: 3 }, player),
        api.post('/daily/games', undefined, player),
      ];
      const answers = await Promise.all(ask());
      const again = await Promise.all(ask());
      const seen = (list: typeof answers) => list.map((a) => [a.status, a.body.id ?? a.body.type]);
      expect(seen(again)).toEqual(seen(answers));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    }
  });
});

describe("a runtime stopped while a write is in hand (npm start's SIGTERM)", () => {
  let close: ((runtimeStopped?: boolean) => Promise<void>) | undefined;
  let stopped = false;
  afterAll(() => close?.(stopped));

  it('answers it before closing, and takes no request after', async () => {
    const started = await behindSlowStore();
    close = started.close;
    const { slow, runtime, api } = started;
    const game = await newGame(api, { seed: 3 });
    // The draw's put is held at the store for a while: the runtime is stopped as it arrives there.
    let arrived!: () => void;
    const atStore = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    slow.control.putDelayMs = 300;
    slow.control.delays = () => {
      arrived();
      return true;
    };
    const draw = api.post(`/games/${game.id}/moves`, { type: 'draw' }, game.auth);
    await atStore;
    const stopping = runtime.stop();
    const answer = await draw;
    expect(answer.status).toBe(200);
    expect(answer.body.version).toBe(1);
    await stopping;
    stopped = true;
    await expect(fetch(`${runtime.url}/openapi.json`)).rejects.toThrow();
  });
});

describe('a runtime stopped as requests arrive', () => {
  it('answers the requests already sent, not yet read, rather than resetting their connections', async () => {
    const runtime = await startRuntime({ port: 0 });
    const { port } = new URL(runtime.url);
    const sockets = Array.from({ length: 20 }, () => connect(Number(port), '127.0.0.1'));
    const answers = sockets.map(
      (socket) =>
        new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (chunk) => {
            text += chunk.toString('latin1');
          });
          socket.on('close', () => resolve(text));
          socket.on('error', (error) => resolve(`error ${error.message}`));
        }),
    );
    await Promise.all(sockets.map((socket) => new Promise((connected) => socket.once('connect', connected))));
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise((sent) =>
            socket.write('GET /openapi.json HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n', sent),
          ),
      ),
    );
    // The stop comes before the runtime has read any of them.
    await runtime.stop();
    for (const answer of await Promise.all(answers)) expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });
});

// On the embedded store, or on an outside one (DYNAMODB_ENDPOINT), where the folder keeps the journal alone.
describe.each([
  ['the embedded store', false],
  ['an outside store', true],
])('a runtime killed before its feed delivered, on %s', (_, outside) => {
  let dir: string;
  let child: ChildProcess | undefined;
  let runtime: Runtime | undefined;
  let store: Awaited<ReturnType<typeof startLocalStore>> | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'klondike-feed-'));
    if (outside) store = await startLocalStore();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await runtime?.stop();
    if (store) delete process.env[ENDPOINT_ENV];
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is caught up by the next runtime on its --data folder: every row matches the log', async () => {
    const env = store ? { ...process.env, [ENDPOINT_ENV]: store.endpoint } : process.env;
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/stalled-runtime.ts', dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const served = /serving (\S+)/.exec(output);
        if (served) resolve(served[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`the runtime exited (${code}): ${output}`)));
    });
    const first = client(url);
    const player = await signedIn(first, 'killed-feed-player');
    const versions = new Map<string, number>();
    for (let i = 0; i < 5; i++) {
      const created = await first.call('POST', '/games', { body: { seed: 10 + i }, headers: player });
      const id = created.body.id as string;
      let view = created.body;
      for (let move = 0; move < i; move++) {
        view = (await first.post(`/games/${id}/moves`, { type: 'draw' }, player)).body;
      }
      if (i % 2 === 1) view = (await first.post(`/games/${id}/resign`, undefined, player)).body;
      versions.set(id, view.version);
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = undefined;
    // The journal holds the writes that were never delivered.
    expect(readFileSync(join(dir, 'change-feed.journal'), 'utf8')).toMatch(/^P /m);

    process.env.LOG_LEVEL = 'SILENT';
    // The runtime gives the variable back as it found it when it stops (afterAll unsets it then).
    if (store) process.env[ENDPOINT_ENV] = store.endpoint;
    runtime = await startRuntime({ port: 0, dataDir: dir });
    await runtime.settled();
    const api = client(runtime.url);
    const again = await signedIn(api, 'killed-feed-player');
    const rows = (await api.get('/me/games?limit=100', again)).body.games as {
      id: string;
      version: number;
    }[];
    expect(new Map(rows.map((row) => [row.id, row.version]))).toEqual(versions);
    const stats = (await api.get('/me/stats', again)).body;
    expect(stats).toMatchObject({ started: 5, resigned: 2, inPlay: 3 });
  });
});
