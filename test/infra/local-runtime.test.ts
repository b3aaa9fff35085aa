import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderInUse, startLocalStore } from '../../infra/local/store.js';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'klondike-data-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/**
 * `npm start` as a user runs it, on a free port; resolves with its URL once it serves. An env
 * entry set to undefined is left out.
 */
function start(args: string[], env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--port', '0', ...args], {
    env: Object.fromEntries(
      Object.entries({ ...process.env, LOG_LEVEL: 'SILENT', ...env }).filter(
        ([, value]) => value !== undefined,
      ),
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const served = new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const url = /serving on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(Object.assign(new Error(`exited ${code}: ${output}`), { code, output })),
    );
  });
  return { child, served, output: () => output };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
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
});

describe('npm start', () => {
  it('prints only its own lines: where it serves, what to try next, where the games are kept', async () => {
    const dir = folder();
    // Without the variable vitest's setup sets, as in a newcomer's shell: node-support turns the
    // AWS SDK's Node version warning off itself.
    const runtime = start(['--data', dir], { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined });
    try {
      const url = await runtime.served;
      for (let waited = 0; !runtime.output().includes('Ctrl-C stops it.') && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
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
      const signIn = await fetch(`${url}/dev/tokens`, { method: 'POST', body: '{"player": "alice"}' });
      const { token } = (await signIn.json()) as { token: string };
      const owned = await fetch(`${url}/games`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: '{}',
      });
      expect(owned.status).toBe(201);
    } finally {
      await stop(runtime.child);
    }
  }, 60_000);

  it('a second runtime on a folder in use exits 1 and says so', async () => {
    const dir = folder();
    const first = start(['--data', dir]);
    await first.served;
    const second = start(['--data', dir]);
    const failure = await second.served.then(
      () => undefined,
      (error: { code: number; output: string }) => error,
    );
    await stop(first.child);
    expect(failure?.code).toBe(1);
    expect(failure?.output).toMatch(/is in use by another local runtime/);
    expect(failure?.output).not.toMatch(/Database is closed/);
  }, 60_000);

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
  }, 60_000);
});
