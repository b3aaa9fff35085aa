import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AttributeValue,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStoreProxy } from '../../infra/local/proxy.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';
import {
  type ChangeStream,
  JournalUnwritable,
  SET_ASIDE_MS,
  startChangeStream,
} from '../../infra/local/stream.js';

/**
 * A record the projector keeps failing on is set aside, not lost: the journal keeps it through its
 * rewrites, the same run tries it again later, and the next start on the journal delivers it.
 * The clock is faked: a record is set aside after about 31 s of tries.
 */

/** Longer than every try of a record before it is set aside. */
const ALL_TRIES_MS = 40_000;

let store: LocalStore;
let dir: string;
let journal: string;
const streams: ChangeStream[] = [];

beforeAll(async () => {
  store = await startLocalStore();
});
afterAll(async () => {
  await store?.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'klondike-journal-'));
  journal = join(dir, 'change-feed.journal');
});
afterEach(() => {
  vi.useRealTimers();
  for (const stream of streams.splice(0)) stream.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A projector that fails every record of the games in `failing`, and notes the games it was given. */
function projector(failing: Set<string>) {
  const seen: string[] = [];
  const consumer = async (event: DynamoDBStreamEvent) => {
    const games = event.Records.map((record) => record.dynamodb!.Keys!.pk!.S!);
    if (games.some((game) => failing.has(game))) throw new Error('the projector fails on this game');
    seen.push(...games);
    return { batchItemFailures: [] };
  };
  return { seen, consumer };
}

function feed(consumer: ReturnType<typeof projector>['consumer']): ChangeStream {
  const stream = startChangeStream({
    upstream: store.endpoint,
    tableName: store.tableName,
    consumer,
    journal,
  });
  streams.push(stream);
  return stream;
}

/** A client of the store, or of what stands in front of it. */
const storeClient = (endpoint = store.endpoint, options: { maxAttempts?: number } = {}) =>
  new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...options,
  });

/** Writes an item of the event table to the store itself, unseen by any tap. */
async function stored(Item: Record<string, AttributeValue>) {
  const client = storeClient();
  await client.send(new PutItemCommand({ TableName: store.tableName, Item }));
  client.destroy();
}

/** An item of the event table written through the store (so it can be read back), as the tap sees it. */
async function written(stream: ChangeStream, game: string) {
  const Item: Record<string, AttributeValue> = { pk: { S: game }, sk: { N: '0' }, owner: { S: 'p' } };
  await stored(Item);
  tapped(stream, game, Item);
}

/** A put the store answered, as the proxy's tap sees it (without the store: nothing reads it back). */
function tapped(
  stream: ChangeStream,
  game: string,
  Item: Record<string, AttributeValue> = { pk: { S: game }, sk: { N: '0' } },
) {
  const request = { operation: 'PutItem', body: { TableName: store.tableName, Item } };
  stream.tap.before!(request);
  stream.tap.after!(request, { status: 200, body: {} });
}

/** Games whose writes the journal holds and does not mark as delivered: what the next start delivers. */
function undelivered(): string[] {
  const left = new Map<string, string>();
  for (const line of readFileSync(journal, 'utf8').split('\n')) {
    const [mark, seq, , ...pk] = line.split(' ');
    if (mark === 'P') left.set(seq!, pk.join(' '));
    if (mark === 'D') left.delete(seq!);
  }
  return [...left.values()];
}

describe('a record the projector keeps failing on', () => {
  it('stays in the journal when it is rewritten, and the next start delivers it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const failing = projector(new Set(['stuck']));
    const first = feed(failing.consumer);
    await written(first, 'stuck');
    await vi.advanceTimersByTimeAsync(ALL_TRIES_MS);
    await first.settled();
    expect(first.backlog().writes).toBe(1);
    // Enough writes delivered for the journal to pass its 4,096 lines and be rewritten.
    for (let i = 0; i < 2_100; i++) tapped(first, `g${i}`);
    await first.settled();
    expect(failing.seen).toHaveLength(2_100);
    expect(readFileSync(journal, 'utf8').split('\n').length).toBeLessThan(4_096);
    expect(undelivered()).toEqual(['stuck']);
    first.close();
    vi.useRealTimers();

    const working = projector(new Set());
    const next = feed(working.consumer);
    await next.settled();
    expect(working.seen).toEqual(['stuck']);
    expect(undelivered()).toEqual([]);
    expect(next.backlog()).toEqual({ writes: 0, games: 0 });
  });

  it('is set aside and delivered later in the same run once the projector takes it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const failing = new Set(['stuck']);
    const { seen, consumer } = projector(failing);
    const stream = feed(consumer);
    await written(stream, 'stuck');
    await vi.advanceTimersByTimeAsync(ALL_TRIES_MS);
    // Set aside: nothing waits for it (a runtime stops), and it is not delivered yet.
    await stream.settled();
    expect(seen).toEqual([]);
    expect(stream.backlog()).toEqual({ writes: 1, games: 0 });
    failing.clear();
    await vi.advanceTimersByTimeAsync(SET_ASIDE_MS);
    await vi.waitFor(() => expect(seen).toEqual(['stuck']));
    await stream.settled();
    expect(stream.backlog()).toEqual({ writes: 0, games: 0 });
    expect(undelivered()).toEqual([]);
  });
});

describe('the journal rewritten', () => {
  it('keeps the write whose own line makes it be rewritten', async () => {
    const { consumer } = projector(new Set(['stuck']));
    const stream = feed(consumer);
    // 2,048 writes noted and delivered: 4,096 lines, as many as the journal keeps before a rewrite.
    for (let i = 0; i < 2_048; i++) tapped(stream, `g${i}`);
    await stream.settled();
    expect(readFileSync(journal, 'utf8').split('\n')).toHaveLength(4_097);
    // The next line is one too many: the journal is rewritten as this write is noted.
    tapped(stream, 'stuck');
    expect(readFileSync(journal, 'utf8').split('\n').length).toBeLessThan(4);
    expect(undelivered()).toEqual(['stuck']);
  });
});

describe('a journal the feed cannot rely on', () => {
  it('refuses a write it cannot note, without forwarding it, and takes writes again once it can', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { seen, consumer } = projector(new Set());
    const stream = feed(consumer);
    const proxy = await startStoreProxy(store.endpoint, [stream.tap]);
    const client = storeClient(proxy.endpoint, { maxAttempts: 1 });
    const put = (game: string) =>
      client.send(
        new PutItemCommand({ TableName: store.tableName, Item: { pk: { S: game }, sk: { N: '0' } } }),
      );
    try {
      // The journal's place taken by a folder: no line can be appended to it.
      rmSync(journal, { force: true });
      mkdirSync(journal);
      expect(() =>
        stream.tap.before!({
          operation: 'PutItem',
          body: { TableName: store.tableName, Item: { pk: { S: 'x' }, sk: { N: '0' } } },
        }),
      ).toThrow(JournalUnwritable);
      await expect(put('refused')).rejects.toMatchObject({ name: 'InternalServerError' });
      const read = await client.send(
        new GetItemCommand({ TableName: store.tableName, Key: { pk: { S: 'refused' }, sk: { N: '0' } } }),
      );
      expect(read.Item).toBeUndefined();
      expect(stream.backlog().writes).toBe(0);
      expect(said.mock.calls.filter(([text]) => String(text).includes('cannot be written'))).toHaveLength(1);
      // Once it can be written again, so are the writes.
      rmSync(journal, { recursive: true });
      await put('taken');
      await stream.settled();
      expect(seen).toEqual(['taken']);
      expect(said.mock.calls.some(([text]) => String(text).includes('can be written again'))).toBe(true);
    } finally {
      client.destroy();
      await proxy.close();
      said.mockRestore();
    }
  });

  it('leaves out the lines it cannot read, says so, and delivers the rest', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // A damaged journal: a sequence number that is none, a version that is none, and a good line.
      writeFileSync(journal, 'P 12x 5 g2\nP 999 notanumber g1\nP 7 0 good\ngarbage\n');
      await stored({ pk: { S: 'good' }, sk: { N: '0' } });
      const { seen, consumer } = projector(new Set());
      const stream = feed(consumer);
      await stream.settled();
      expect(seen).toEqual(['good']);
      expect(undelivered()).toEqual([]);
      expect(said.mock.calls.map(([text]) => String(text))).toEqual([
        expect.stringMatching(/has 3 lines it cannot read, left out: .*npm run rebuild-projections/),
      ]);
    } finally {
      said.mockRestore();
    }
  });
});
