import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { type Runtime, startRuntime } from '../../infra/local/runtime.js';
import { LOCAL_TABLE, type LocalStore, startLocalStore } from '../../infra/local/store.js';
import fixture from '../fixtures/legacy-item-per-event.json' with { type: 'json' };
import { type Client, client } from '../support/local.js';

/**
 * A table written by the item-per-event layout (an item per event, a snapshot on every 32nd), as
 * that release wrote it: its games must fold to the views that release served, at every version,
 * answer their keyed retries as they did, take new commits on top, and rebuild their read models.
 */
interface FixtureGame {
  readonly name: string;
  readonly id: string;
  readonly token: string;
  readonly keys: readonly { key: string; path: string; body?: unknown; version: number }[];
  readonly views: Readonly<Record<string, { version: number; status: string }>>;
}
const games = fixture.games as unknown as FixtureGame[];
const named = (name: string) => games.find((game) => game.name === name)!;
const auth = (game: FixtureGame) => ({ authorization: `Bearer ${game.token}` });

/**
 * A view that release served, as this one serves it: that release listed a finished game's stock
 * top first, this one bottom to top like every pile. Nothing else differs.
 */
function asServedNow(view: object) {
  const { stock } = view as { stock?: { count: number; cards?: string[] } };
  return stock?.cards ? { ...view, stock: { ...stock, cards: [...stock.cards].reverse() } } : view;
}

let store: LocalStore;
let runtime: Runtime;
let api: Client;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'SILENT';
  store = await startLocalStore();
  const raw = new DynamoDBClient({
    endpoint: store.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const items = fixture.items as unknown as Record<string, never>[];
  for (let i = 0; i < items.length; i += 25) {
    const requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await raw.send(new BatchWriteItemCommand({ RequestItems: { [LOCAL_TABLE]: requests } }));
  }
  raw.destroy();
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[TABLE_ENV] = LOCAL_TABLE;
  runtime = await startRuntime({ port: 0 });
  api = client(runtime.url);
});

afterAll(async () => {
  await runtime?.stop();
  delete process.env[ENDPOINT_ENV];
  delete process.env[TABLE_ENV];
  await store?.close();
});

describe('a log in the item-per-event layout', () => {
  it('folds to the view that layout served, at every version', async () => {
    for (const game of games) {
      for (const [version, view] of Object.entries(game.views)) {
        const answer = await api.get(`/games/${game.id}?at=${version}`, auth(game));
        expect(answer.status, `${game.name} at ${version}`).toBe(200);
        expect(answer.body, `${game.name} at ${version}`).toEqual(asServedNow(view));
      }
    }
  });

  it('gives the first answer again to its keyed requests, appending nothing', async () => {
    const game = named('long');
    const latest = Math.max(...Object.keys(game.views).map(Number));
    for (const keyed of game.keys) {
      const path = keyed.path.replace('{id}', game.id);
      const answer = await api.call('POST', path, {
        ...(keyed.body === undefined ? {} : { body: keyed.body }),
        headers: { ...auth(game), 'idempotency-key': keyed.key },
      });
      expect(answer.status, keyed.key).toBe(200);
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      expect(answer.body).toEqual(game.views[keyed.version]);
    }
    expect((await api.get(`/games/${game.id}`, auth(game))).body.version).toBe(latest);
  });

  it('takes new commits on top of the old items, and its events and replay read across both', async () => {
    const game = named('long');
    const before = (await api.get(`/games/${game.id}`, auth(game))).body;
    const moved = await api.post(`/games/${game.id}/moves`, before.legalMoves[0], auth(game));
    expect(moved.status).toBe(200);
    expect(moved.body.version).toBe(before.version + 1);
    const undone = await api.post(`/games/${game.id}/undo`, undefined, auth(game));
    expect(undone.body).toEqual({ ...before, version: before.version + 2, canRedo: true });
    const events = await api.get(`/games/${game.id}/events?after=${before.version - 3}`, auth(game));
    expect(events.body.events.map((event: { version: number }) => event.version)).toEqual(
      [-2, -1, 0, 1, 2].map((d) => before.version + d),
    );
    const replay = await api.get(
      `/games/${game.id}/replay?from=${before.version - 1}&to=${before.version + 2}`,
      auth(game),
    );
    expect(replay.body.frames[1].view).toEqual(before);
    expect(replay.body.frames[3].view).toEqual(undone.body);
  });

  it("rebuilds the players' read models from it", async () => {
    const game = named('resigned');
    const rebuilt = await api.post('/dev/rebuild-projections');
    expect(rebuilt.status).toBe(200);
    const jwt = await runtime.issuer!.tokenFor('legacy-player');
    const mine = await api.get('/me/games', { authorization: `Bearer ${jwt}` });
    expect(mine.body.games).toMatchObject([{ id: game.id, status: 'resigned', version: 10 }]);
  });
});
