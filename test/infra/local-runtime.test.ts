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

/** `npm start` as a user runs it, on a free port; resolves with its URL once it serves. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'SILENT', ...env },
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
      expect(deal.Item?.type?.S).toBe('dealt');
      client.destroy();
    } finally {
      await stop(runtime.child);
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  }, 60_000);
});
