import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import {
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENDPOINT_ENV } from '../../functions/routes.js';
import { CREATION_SECRET_ENV } from '../../functions/store/creations.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { CREATION_SECRET_FILE, creationSecret } from '../../infra/local/creation-secret.js';
import { DEV_ISSUER_KEY_FILE, startDevIssuer } from '../../infra/local/issuer.js';
import { StoreUnusable, startRuntime } from '../../infra/local/runtime.js';
import { listen, serve } from '../../infra/local/server.js';
import {
  ensureTables,
  FolderInUse,
  followOutsideStore,
  OUTSIDE_STORE_FILE,
  startLocalStore,
} from '../../infra/local/store.js';

const run = promisify(execFile);
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'klondike-data-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** `npm start` as a user runs it, on a free port; resolves with its URL once it serves. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'SILENT', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (data: Buffer) => {
    output += data.toString();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  /** Resolves with the match once the output matches `text`; rejects if the process exits first. */
  const printed = (text: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = text.exec(output);
        if (match) resolve(match);
        return Boolean(match);
      };
      if (check()) return;
      const onMore = () => {
        if (check()) {
          child.stdout.off('data', onMore);
          child.stderr.off('data', onMore);
        }
      };
      child.stdout.on('data', onMore);
      child.stderr.on('data', onMore);
      child.once('exit', (code) =>
        reject(Object.assign(new Error(`exited ${code}: ${output}`), { code, output })),
      );
    });
  // The URL is whole once a space or the line's end follows it.
  const served = printed(/serving on (http:\/\/\S+)\s/).then((match) => match[1]!);
  return { child, served, output: () => output, printed };
}

/** Waits for the banner's last line (the URL is printed first). */
const bannerOf = async (runtime: ReturnType<typeof start>): Promise<void> =>
  void (await runtime.printed(/Ctrl-C stops it\./));

/** Signs in at the development issuer as alice and creates a game: the status of the creation. */
async function createSignedIn(url: string): Promise<number> {
  const signIn = await fetch(`${url}/dev/tokens`, { method: 'POST', body: '{"player": "alice"}' });
  const { token } = (await signIn.json()) as { token: string };
  const owned = await fetch(`${url}/games`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: '{}',
  });
  return owned.status;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

describe('a restart on the same --data folder and address', () => {
  it("keeps the development issuer's key: a sign-in token from before is still good, for its hour", async () => {
    const dir = folder();
    process.env.LOG_LEVEL = 'SILENT';
    const first = await startRuntime({ port: 0, dataDir: dir });
    const port = new URL(first.url).port;
    const { token } = (await (
      await fetch(`${first.url}/dev/tokens`, { method: 'POST', body: '{"player": "alice"}' })
    ).json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${first.url}/games`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(
      201,
    );
    await first.settled();
    await first.stop();
    const again = await startRuntime({ port: Number(port), dataDir: dir });
    try {
      const stats = await fetch(`${again.url}/me/stats`, { headers: auth });
      expect(stats.status).toBe(200);
      expect(((await stats.json()) as { started: number }).started).toBe(1);
    } finally {
      await again.stop();
    }
  });
});

describe("the development issuer's key file", () => {
  it('is replaced, and said, when it holds no key the issuer can sign with', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const damaged of ['{"kid": "k", "jwk": {"kty": "EC", "d": "x"}}', 'not json', '{}']) {
        const file = join(folder(), DEV_ISSUER_KEY_FILE);
        writeFileSync(file, damaged);
        const issuer = await startDevIssuer('http://127.0.0.1:1', file);
        expect(await issuer.tokenFor('alice')).toMatch(/^ey/);
        expect(said.mock.calls.at(-1)?.[0]).toMatch(
          new RegExp(
            `^The development issuer's key file ${file} cannot be used \\(.+\\): a new key replaces it`,
          ),
        );
        // The new key is kept: the next start signs with it, and says nothing.
        const calls = said.mock.calls.length;
        const again = await startDevIssuer('http://127.0.0.1:1', file);
        expect(again.jwks).toEqual(issuer.jwks);
        expect(said.mock.calls).toHaveLength(calls);
      }
    } finally {
      said.mockRestore();
    }
  });
});

describe('the embedded store', () => {
  it("keeps its own tables whatever READ_TABLE_NAME says (an outside store's name): the read side answers", async () => {
    process.env.LOG_LEVEL = 'SILENT';
    process.env[READ_TABLE_ENV] = 'a-name-for-another-store';
    const runtime = await startRuntime({ port: 0 });
    try {
      const auth = { authorization: `Bearer ${await runtime.issuer!.tokenFor('alice')}` };
      expect((await fetch(`${runtime.url}/me/stats`, { headers: auth })).status).toBe(200);
    } finally {
      await runtime.stop();
      delete process.env[READ_TABLE_ENV];
    }
  });
});

describe("the creation secret's file", () => {
  it('is made at the first start, readable by its owner only, kept after, and replaced, and said, when it holds no secret', () => {
    const given = process.env[CREATION_SECRET_ENV];
    delete process.env[CREATION_SECRET_ENV];
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const dir = folder();
      const file = join(dir, CREATION_SECRET_FILE);
      const made = creationSecret(dir);
      expect(made.length).toBeGreaterThanOrEqual(32);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(creationSecret(dir)).toBe(made);
      // Without a folder, one for the run: another each time.
      expect(creationSecret(undefined)).not.toBe(creationSecret(undefined));
      expect(said).not.toHaveBeenCalled();
      writeFileSync(file, 'short');
      const replaced = creationSecret(dir);
      expect(replaced).not.toBe(made);
      expect(said.mock.calls[0]?.[0]).toMatch(
        new RegExp(`^The creation secret file ${file} holds no usable secret`),
      );
      expect(creationSecret(dir)).toBe(replaced);
      // A file of anything else than the runtime writes (another tool's, garbage) is replaced too.
      writeFileSync(file, 'z'.repeat(60));
      expect(creationSecret(dir)).not.toBe(replaced);
      // One the environment gives is the one; one too short to be a secret is refused.
      process.env[CREATION_SECRET_ENV] = 'x'.repeat(40);
      expect(creationSecret(dir)).toBe('x'.repeat(40));
      process.env[CREATION_SECRET_ENV] = ' short ';
      expect(() => creationSecret(dir)).toThrow(/^CREATION_SECRET must be at least 32 characters/);
    } finally {
      said.mockRestore();
      if (given === undefined) delete process.env[CREATION_SECRET_ENV];
      else process.env[CREATION_SECRET_ENV] = given;
    }
  });
});

describe('a read-model table deleted', () => {
  it('is 503 on the read side (not 500), and comes back whole from npm run rebuild-projections or a restart', async () => {
    const dir = folder();
    process.env.LOG_LEVEL = 'SILENT';
    let runtime = await startRuntime({ port: 0, dataDir: dir });
    let running = true;
    try {
      // A token of the runtime's issuer, whose address changes with the restart below.
      const signedIn = async () => ({ authorization: `Bearer ${await runtime.issuer!.tokenFor('alice')}` });
      const auth = await signedIn();
      const read = async (path: string) => {
        const answer = await fetch(`${runtime.url}${path}`, { headers: await signedIn() });
        return { status: answer.status, body: (await answer.json()) as { type?: string } };
      };
      for (const seed of [1, 2]) {
        const created = await fetch(`${runtime.url}/games`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ seed }),
        });
        const { id } = (await created.json()) as { id: string };
        if (seed === 2) await fetch(`${runtime.url}/games/${id}/resign`, { method: 'POST', headers: auth });
      }
      await runtime.settled();
      const before = [await read('/me/games'), await read('/me/stats')];
      expect(before.map(({ status }) => status)).toEqual([200, 200]);
      const dropReadModels = async (untilGone: boolean) => {
        const client = new DynamoDBClient({
          endpoint: process.env[ENDPOINT_ENV]!,
          region: 'local',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        });
        const TableName = process.env[READ_TABLE_ENV]!;
        await client.send(new DeleteTableCommand({ TableName }));
        // Gone, as a deletion in DynamoDB ends (dynalite ends it a moment later, if it still runs).
        if (untilGone)
          await expect
            .poll(() =>
              client.send(new DescribeTableCommand({ TableName })).then(
                () => 'there',
                () => 'gone',
              ),
            )
            .toBe('gone');
        client.destroy();
      };

      // Rebuilt while the table may still be being deleted: made again once it is gone.
      await dropReadModels(false);
      const missing = await read('/me/games');
      expect(missing.status).toBe(503);
      expect(missing.body.type).toBe('/problems/store-unavailable');
      // The operator's command, as the docs give it (a slash at the URL's end is the same URL).
      const rebuilt = await run(process.execPath, [
        '--import',
        'tsx',
        'scripts/rebuild-projections.ts',
        '--url',
        `${runtime.url}/`,
      ]);
      expect(rebuilt.stdout).toMatch(
        /^Read models rebuilt from the log: \d+ items deleted, 2 games of 1 player projected\.$/m,
      );
      expect([await read('/me/games'), await read('/me/stats')]).toEqual(before);

      // Deleted again, and the runtime restarted on the folder: rebuilt before the first request.
      await dropReadModels(true);
      running = false;
      await runtime.stop();
      runtime = await startRuntime({ port: 0, dataDir: dir });
      running = true;
      expect([await read('/me/games'), await read('/me/stats')]).toEqual(before);
    } finally {
      if (running) await runtime.stop();
    }
  });
});

describe('the local store folder', () => {
  it('is taken by one runtime at a time, with a clear message; a stale lock is taken over', async () => {
    const dir = folder();
    const first = await startLocalStore({ dataDir: dir });
    await expect(startLocalStore({ dataDir: dir })).rejects.toThrow(FolderInUse);
    await expect(startLocalStore({ dataDir: dir })).rejects.toThrow(/in use by another local runtime/);
    await first.close();
    const again = await startLocalStore({ dataDir: dir });
    await again.close();
    // A lock left by a process that is gone (a kill -9) does not block the folder.
    writeFileSync(join(dir, 'klondike.lock'), '999999999');
    const after = await startLocalStore({ dataDir: dir });
    await after.close();
  });

  it('beside an outside store follows that store and table alone, one runtime at a time, and is refused as the embedded store', async () => {
    const dir = folder();
    const release = followOutsideStore(dir, 'http://127.0.0.1:8000', 'games');
    expect(() => followOutsideStore(dir, 'http://127.0.0.1:8000', 'games')).toThrow(FolderInUse);
    release();
    expect(readFileSync(join(dir, OUTSIDE_STORE_FILE), 'utf8')).toBe('http://127.0.0.1:8000 games\n');
    followOutsideStore(dir, 'http://127.0.0.1:8000', 'games')();
    // Its journal is of that store's writes: not of another store, nor of another table there.
    expect(() => followOutsideStore(dir, 'http://127.0.0.1:9000', 'games')).toThrow(
      /follows the table games at http:\/\/127\.0\.0\.1:8000, and its change feed's journal is of that store's writes/,
    );
    expect(() => followOutsideStore(dir, 'http://127.0.0.1:8000', 'other')).toThrow(
      /follows the table games/,
    );
    await expect(startLocalStore({ dataDir: dir })).rejects.toThrow(
      /follows an outside store \(DYNAMODB_ENDPOINT http:\/\/127\.0\.0\.1:8000\): set DYNAMODB_ENDPOINT again/,
    );
    // Each refusal left the folder free.
    followOutsideStore(dir, 'http://127.0.0.1:8000', 'games')();
    // A folder of the embedded store is no folder for an outside one.
    const embedded = folder();
    await (await startLocalStore({ dataDir: embedded })).close();
    expect(() => followOutsideStore(embedded, 'http://127.0.0.1:8000', 'games')).toThrow(
      /holds the embedded store's games/,
    );
    expect(existsSync(join(embedded, OUTSIDE_STORE_FILE))).toBe(false);
  });

  it('is not made by a rebuild given a folder that holds no games (a mistyped path)', async () => {
    /** `npm run rebuild-projections -- --data dir`, its failure as it ended. */
    const rebuild = (dir: string) =>
      run(process.execPath, ['--import', 'tsx', 'scripts/rebuild-projections.ts', '--data', dir]).catch(
        (error: { code: number; stderr: string }) => error,
      );
    const typo = join(folder(), 'no-such-data');
    const failed = await rebuild(typo);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr.trim()).toBe(
      `Could not rebuild: ${typo} holds no games of npm start -- --data (no store was made there)`,
    );
    expect(existsSync(typo)).toBe(false);
    // A folder kept beside an outside store: no games there either, and where its tables are said.
    const beside = folder();
    followOutsideStore(beside, 'http://127.0.0.1:8000', 'games')();
    const refused = await rebuild(beside);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr.trim()).toBe(
      `Could not rebuild: ${beside} keeps the change feed of the table games at http://127.0.0.1:8000, not its games: rebuild there with DYNAMODB_ENDPOINT=http://127.0.0.1:8000 TABLE_NAME=games npm run rebuild-projections -- --tables`,
    );
  });

  it('is made with the folders above it, or refused in one line: a file on its way, a path that cannot be made', async () => {
    const nested = join(folder(), 'a', 'b');
    const made = await startLocalStore({ dataDir: nested });
    await made.close();
    // The data folder is its owner's alone (it holds every deal); the folders above it as usual.
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(nested)).mode & 0o077).not.toBe(0);
    const file = join(folder(), 'notes.txt');
    writeFileSync(file, 'x');
    await expect(startLocalStore({ dataDir: join(file, 'data') })).rejects.toThrow(
      `The data folder ${join(file, 'data')} cannot be made: ${file} is a file.`,
    );
    // Node's own recursive mkdir never returns for this one.
    await expect(startLocalStore({ dataDir: '/proc/nonexistent/data' })).rejects.toThrow(
      /cannot be made: ENOENT/,
    );
  });
});

describe('npm start', () => {
  // One runtime on a folder for the banner's test and the second runtime's: a start costs a second
  // of CPU (tsx, the store, the web client).
  let dir: string;
  let kept: ReturnType<typeof start>;
  beforeAll(() => {
    dir = folder();
    kept = start(['--data', dir]);
  });
  afterAll(() => stop(kept.child));

  it('prints only its own lines: where it serves, what to try next, where the games are kept', async () => {
    const runtime = kept;
    const url = await runtime.served;
    await bannerOf(runtime);
    const lines = runtime.output().split('\n');
    expect(lines[0]).toBe(`Klondike is serving on ${url}`);
    expect(lines.slice(1, 9)).toEqual([
      expect.stringMatching(new RegExp(`^ {2}Web client {2}${url}/ {2}\\(built in \\d+ ms\\)$`)),
      `  Terminal    npm run play -- --url ${url}`,
      `  API         curl -s -X POST ${url}/games -d '{"seed": 1}'`,
      `              every route: ${url}/openapi.json`,
      `  Sign in     curl -s -X POST ${url}/dev/tokens -d '{"player": "alice"}'`,
      `              then: curl -s -X POST ${url}/games -H 'Authorization: Bearer <the token>' -d '{}'`,
      `  Data        in ${dir}: kept across restarts (one runtime a folder)`,
      'Ctrl-C stops it.',
    ]);
    expect(runtime.output()).not.toMatch(/Warning/);
    // The commands work as printed.
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${url}/games`, { method: 'POST', body: '{"seed": 1}' })).status).toBe(201);
    expect(await createSignedIn(url)).toBe(201);
  });

  it('bound to every network (--host 0.0.0.0) says who can reach it, and signs in on this machine', async () => {
    const runtime = start(['--host', '0.0.0.0']);
    try {
      const url = await runtime.served;
      await bannerOf(runtime);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(runtime.output()).toMatch(
        /\n {2}Reach {7}bound to 0\.0\.0\.0: anyone on this machine's networks can play/,
      );
      expect(runtime.output()).toContain(`/dev routes (sign-in tokens) answer only this machine, at ${url}`);
      // The functions fetch the issuer's keys at loopback, which a wildcard includes.
      expect(await createSignedIn(url)).toBe(201);
    } finally {
      await stop(runtime.child);
    }
  });

  it('a second runtime on a folder in use exits 1 and says so', async () => {
    await kept.served;
    const second = start(['--data', dir]);
    const failure = await second.served.then(
      () => undefined,
      (error: { code: number; output: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.output).toMatch(/is in use by another local runtime/);
    expect(failure?.output).not.toMatch(/Database is closed/);
  });

  it('with DYNAMODB_ENDPOINT and TABLE_NAME serves on that store, creating the table if it is missing', async () => {
    const bare: Server = dynalite({ createTableMs: 0 });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const runtime = start([], { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: 'games-elsewhere' });
    try {
      const url = await runtime.served;
      expect(runtime.output()).toContain(`table games-elsewhere at ${endpoint}`);
      const created = await fetch(`${url}/games`, { method: 'POST', body: '{"seed": 1}' });
      expect(created.status).toBe(201);
      const client = new DynamoDBClient({
        endpoint,
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const { id } = (await created.json()) as { id: string };
      const deal = await client.send(
        new GetItemCommand({ TableName: 'games-elsewhere', Key: { pk: { S: id }, sk: { N: '0' } } }),
      );
      expect(deal.Item?.events?.L?.[0]?.M?.type?.S).toBe('dealt');
      client.destroy();
    } finally {
      await stop(runtime.child);
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });
});

describe('npm start on tables of the wrong shape', () => {
  it('with TABLE_NAME and READ_TABLE_NAME swapped exits 1 with one line naming the table, the log kept', async () => {
    const outside: Server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
    const client = new DynamoDBClient({
      endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await ensureTables(endpoint, 'the-log', 'the-read-models');
      const Key = { pk: { S: 'g1' }, sk: { N: '0' } };
      await client.send(new PutItemCommand({ TableName: 'the-log', Item: { ...Key, owner: { S: 'p' } } }));
      const { code, lines } = await failedStart({
        DYNAMODB_ENDPOINT: endpoint,
        TABLE_NAME: 'the-read-models',
        READ_TABLE_NAME: 'the-log',
      });
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^Could not start: the table the-read-models at \S+ is not an event log: .*; name the event log in TABLE_NAME\./,
      );
      const { Item } = await client.send(
        new GetItemCommand({ TableName: 'the-log', Key, ConsistentRead: true }),
      );
      expect(Item?.owner?.S).toBe('p');
    } finally {
      client.destroy();
      await new Promise<void>((resolve) => outside.close(() => resolve()));
    }
  });
});

/** A TCP server on a free loopback port; `silent` accepts connections and never says a word. */
async function tcpServer(): Promise<{ server: TcpServer; port: number; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * An HTTP server on a free loopback port standing for an outside store: `answer` says what its
 * `n`-th request (from 0) is answered, or `undefined` to hold that request unanswered.
 */
async function fakeStore(
  answer: (n: number) => { status: number; type: string; body: string } | undefined,
): Promise<{ endpoint: string; close(): Promise<void> }> {
  let n = 0;
  const server = createHttpServer((request, response) => {
    const given = answer(n++);
    request.resume();
    if (!given) return;
    request.once('end', () => {
      response.writeHead(given.status, { 'content-type': given.type });
      response.end(given.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `npm start` meant to fail, with the service's time limits as written (KLONDIKE_TIME_SCALE=1):
 * its exit code and its lines; one still running after 15 s is killed (code null). How long a
 * start takes to give up is the deadline's (8 s after the process began), not asserted here: a
 * timed assertion fails on a busy machine.
 */
async function failedStart(env: Record<string, string>, args: string[] = []) {
  const runtime = start(args, { KLONDIKE_TIME_SCALE: '1', ...env });
  runtime.served.catch(() => {});
  const kill = setTimeout(() => runtime.child.kill('SIGKILL'), 15_000);
  const code = await new Promise<number | null>((resolve) => runtime.child.once('close', resolve));
  clearTimeout(kill);
  return { code, lines: runtime.output().trim().split('\n') };
}

describe('starting (docs/api.md, "The local runtime answers every request")', () => {
  it('answers a request that comes before the routes are attached 503 starting, Retry-After: 1; then serves', async () => {
    const { server, port } = await listen(0);
    try {
      // Without an answer the request would hang for Node's 300 s: 5 s is a failure.
      const early = await fetch(`http://127.0.0.1:${port}/openapi.json`, {
        signal: AbortSignal.timeout(5_000),
      });
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(early.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await early.json()).toMatchObject({ type: '/problems/starting', status: 503 });
      await serve(server);
      expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('takes DYNAMODB_ENDPOINT set but empty as unset: the embedded store', async () => {
    const given = process.env[ENDPOINT_ENV];
    process.env[ENDPOINT_ENV] = '';
    try {
      const runtime = await startRuntime({ port: 0 });
      const created = await fetch(`${runtime.url}/games`, { method: 'POST', body: '{}' });
      expect(created.status).toBe(201);
      await runtime.stop();
    } finally {
      if (given === undefined) delete process.env[ENDPOINT_ENV];
      else process.env[ENDPOINT_ENV] = given;
    }
  });

  it('gives up on an outside store that accepts and never answers, naming it', async () => {
    const silent = await tcpServer();
    const endpoint = `http://127.0.0.1:${silent.port}`;
    const given = process.env[ENDPOINT_ENV];
    process.env[ENDPOINT_ENV] = endpoint;
    try {
      const started = startRuntime({ port: 0, storeWaitMs: 300 });
      await expect(started).rejects.toThrow(StoreUnusable);
      await expect(started).rejects.toThrow(
        `the store at ${endpoint} (${ENDPOINT_ENV}) did not answer within 0.3 s`,
      );
    } finally {
      if (given === undefined) delete process.env[ENDPOINT_ENV];
      else process.env[ENDPOINT_ENV] = given;
      await silent.close();
    }
  });

  it('refuses an outside store given without its scheme at once, saying how to give it', async () => {
    const given = process.env[ENDPOINT_ENV];
    process.env[ENDPOINT_ENV] = 'localhost:8000';
    try {
      await expect(startRuntime({ port: 0 })).rejects.toThrow(
        new StoreUnusable(
          `${ENDPOINT_ENV} is "localhost:8000", not an http or https URL: give it with its scheme, such as http://localhost:8000.`,
        ),
      );
    } finally {
      if (given === undefined) delete process.env[ENDPOINT_ENV];
      else process.env[ENDPOINT_ENV] = given;
    }
  });

  it('npm start with a mistake on its command line says it and its usage, exit 2, no stack trace', async () => {
    for (const [args, said] of [
      [['--datadir', 'x'], "Unknown option '--datadir'"],
      [['--port', 'abc'], '--port takes a port number (0 to 65535), not "abc".'],
      [['--host', ''], '--host takes an address (127.0.0.1, 0.0.0.0, ::1 ...), not an empty one.'],
      [['--data='], '--data takes a folder, not an empty name (leave it out to keep the games in memory).'],
    ] as const) {
      const { code, lines } = await failedStart({}, [...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(lines).toEqual([
        said,
        'usage: npm start -- [--port N] [--data DIR] [--host ADDRESS] [--isolated]',
      ]);
    }
  });

  it('npm start on a data folder whose store files are damaged exits 1 with one line saying so, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'klondike-damaged-'));
    try {
      const store = await startLocalStore({ dataDir: dir });
      await store.close();
      // LevelDB's pointer to its manifest, emptied as a disk fault or a careless copy leaves it.
      writeFileSync(join(dir, 'CURRENT'), '');
      const { code, lines } = await failedStart({}, ['--data', dir]);
      expect(code).toBe(1);
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^The embedded store in ${dir} failed \\(.+\\): its files may be damaged\\. Start on a copy`,
          ),
        ),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm start on a store it cannot reach exits 1 with one line naming it', async () => {
    const closed = await tcpServer();
    await closed.close();
    const endpoint = `http://127.0.0.1:${closed.port}`;
    const { code, lines } = await failedStart({ DYNAMODB_ENDPOINT: endpoint });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^Could not start: the store at ${endpoint} \\(${ENDPOINT_ENV}\\) cannot be reached`),
    );
  });

  it('npm start on a store that answers its first call and then never again exits 1 at its deadline, naming it', async () => {
    const stalling = await fakeStore((n) =>
      n === 0 ? { status: 200, type: 'application/x-amz-json-1.0', body: '{"TableNames":[]}' } : undefined,
    );
    try {
      // A quarter of the deadline (2 s rather than 8 s after the process began): the same give-up, sooner.
      const { code, lines } = await failedStart({
        DYNAMODB_ENDPOINT: stalling.endpoint,
        KLONDIKE_TIME_SCALE: '0.25',
      });
      expect(code).toBe(1);
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Could not start: the store at ${stalling.endpoint} \\(${ENDPOINT_ENV}\\) took more than [\\d.]+ s creating the table klondike-local: check it, or unset ${ENDPOINT_ENV} to use the embedded one\\.$`,
          ),
        ),
      ]);
    } finally {
      await stalling.close();
    }
  });

  it('npm start on an endpoint that answers, but not as a DynamoDB-compatible store, exits 1 at once, naming it', async () => {
    // Another local runtime, starting: 503 problem+json to every request.
    const other = await fakeStore(() => ({
      status: 503,
      type: 'application/problem+json',
      body: '{"type":"/problems/starting","title":"starting","status":503}',
    }));
    try {
      const { code, lines } = await failedStart({ DYNAMODB_ENDPOINT: other.endpoint });
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Could not start: the store at ${other.endpoint} (${ENDPOINT_ENV}) is not a DynamoDB-compatible store: it answered HTTP 503 (application/problem+json) when listing its tables. Point ${ENDPOINT_ENV} at one, or unset it to use the embedded one.`,
      ]);
    } finally {
      await other.close();
    }
  });

  it('npm start on a port in use exits 1 with one line saying so', async () => {
    const taken = await tcpServer();
    try {
      const failure = await start(['--port', String(taken.port)]).served.then(
        () => undefined,
        (error: { code: number; output: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure!.output.trim().split('\n')).toEqual([
        `Could not start: port ${taken.port} on 127.0.0.1 is in use: stop what uses it, or choose another with --port (or PORT).`,
      ]);
    } finally {
      await taken.close();
    }
  });
});
