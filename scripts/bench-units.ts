/**
 * What one action of each kind asks of the store (`npm run bench:units`), on the local runtime with
 * its meter: requests, and the read and write units the store reports (DynamoDB's rules: a strongly
 * consistent read is a unit per 4 KB, an eventually consistent one half; a write a unit per KB), by
 * table, the projector's work for a player's game included. Each action runs once, after the change
 * feed has settled, so its figures are its own. docs/operations.md quotes them. Index writes are not
 * in dynalite's figures.
 */

import { parseScriptArgs } from '../infra/local/args.js';
import winningLines from '../test/fixtures/winning-lines.json' with { type: 'json' };
import { quickDeck } from './quick-deck.js';

// No options: anything else given is refused, with the usage.
parseScriptArgs({ options: {} }, 'npm run bench:units');
// Before the handlers load (the test support loads them too): their logger reads it once.
process.env.LOG_LEVEL ??= 'SILENT';
const { startRuntime } = await import('../infra/local/runtime.js');
const { client } = await import('../test/support/local.js');

const runtime = await startRuntime({ port: 0, meter: true });
const api = client(runtime.url);
const meter = runtime.meter!;
const copy = () => new Map([...meter.tables].map(([name, counts]) => [name, { ...counts }] as const));

/** Runs one action and prints what it cost, table by table. */
async function measure(what: string, action: () => Promise<{ status: number; text: string }>) {
  await runtime.settled();
  const before = copy();
  const answer = await action();
  if (answer.status >= 400) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  await runtime.settled();
  const parts = [...meter.tables].flatMap(([name, after]) => {
    const was = before.get(name);
    const requests = after.requests - (was?.requests ?? 0);
    if (requests === 0) return [];
    const table = name === runtime.readTableName ? 'read models' : 'events';
    return [
      `${table}: ${requests} requests, ${after.readUnits - (was?.readUnits ?? 0)} read units, ${after.writeUnits - (was?.writeUnits ?? 0)} write units`,
    ];
  });
  console.log(`${what.padEnd(44)} ${parts.join('; ') || 'no store request'}`);
}

console.log(`\nKlondike: the store's units per action (node ${process.version}, local runtime, dynalite)`);
let game = { id: '', auth: {} as Record<string, string> };
await measure('POST /games', async () => {
  const created = await api.post('/games', { seed: 42 });
  game = { id: created.body.id, auth: { authorization: `Bearer ${created.body.token}` } };
  return created;
});
const key = { 'idempotency-key': crypto.randomUUID() };
await measure('POST /games with an Idempotency-Key', () => api.post('/games', { seed: 42 }, key));
await measure('the same, retried', () => api.post('/games', { seed: 42 }, key));
const moves = `/games/${game.id}/moves`;
await measure('a draw', () => api.post(moves, { type: 'draw' }, game.auth));
const keyed = { ...game.auth, 'idempotency-key': 'a-draw' };
await measure('a draw with an Idempotency-Key', () => api.post(moves, { type: 'draw' }, keyed));
await measure('the same, retried', () => api.post(moves, { type: 'draw' }, keyed));
await measure('an undo', () => api.post(`/games/${game.id}/undo`, undefined, game.auth));
await measure('GET /games/{id}', () => api.get(`/games/${game.id}`, game.auth));
await measure('GET /games/{id}?at=1', () => api.get(`/games/${game.id}?at=1`, game.auth));
const quick = await api.post('/games', { deck: quickDeck() });
const quickAuth = { authorization: `Bearer ${quick.body.token}` };
await measure('an autoplay of 28 cards (one commit)', () =>
  api.post(`/games/${quick.body.id}/autoplay`, undefined, quickAuth),
);
const player = { authorization: `Bearer ${await runtime.issuer!.tokenFor('units')}` };
let owned = '';
await measure("a player's POST /games, projected", async () => {
  const created = await api.post('/games', { seed: 42 }, player);
  owned = created.body.id;
  return created;
});
await measure("a player's draw, projected", () =>
  api.post(`/games/${owned}/moves`, { type: 'draw' }, player),
);
await measure("a player's resignation, projected", () =>
  api.post(`/games/${owned}/resign`, undefined, player),
);
await measure('GET /me/stats', () => api.get('/me/stats', player));
await measure('GET /me/games', () => api.get('/me/games', player));
await measure('POST /replays', () => api.post('/replays', { seed: 42, moves: [{ type: 'draw' }] }));

// What a game keeps in the event table for ever (the log has no expiry): its items' size by
// DynamoDB's rules (attribute names and values; a number about a byte per two digits), as storage
// and point-in-time recovery bill it.
const { DynamoDBClient, QueryCommand } = await import('@aws-sdk/client-dynamodb');
type AttributeValue = import('@aws-sdk/client-dynamodb').AttributeValue;
const store = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT!,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
type Value = AttributeValue;
const valueSize = (value: Value): number => {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\.|^0+/g, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.L !== undefined) return 3 + value.L.reduce((sum, item) => sum + 1 + valueSize(item), 0);
  if (value.M !== undefined) return 3 + itemSize(value.M) + Object.keys(value.M).length;
  return 1;
};
const itemSize = (item: Record<string, Value>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
async function stored(what: string, game: { id: string; token: string }) {
  const { id } = game;
  let items = 0;
  let bytes = 0;
  let start: Record<string, Value> | undefined;
  do {
    const page = await store.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :id',
        ExpressionAttributeValues: { ':id': { S: id } },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      items++;
      bytes += itemSize(item);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const version = (await api.get(`/games/${id}`, { authorization: `Bearer ${game.token}` })).body.version;
  console.log(`${what.padEnd(44)} ${version} actions: ${items} items, ${(bytes / 1024).toFixed(1)} KB`);
}
console.log('\nWhat a game keeps in the event table');
await stored('a game dealt, no action', (await api.post('/games', { seed: 7 })).body);
const twenty = await api.post('/games', { seed: 8 });
const twentyAuth = { authorization: `Bearer ${twenty.body.token}` };
for (let i = 0; i < 19; i++) {
  const { stock } = (await api.get(`/games/${twenty.body.id}`, twentyAuth)).body;
  await api.post(`/games/${twenty.body.id}/moves`, { type: stock.count ? 'draw' : 'recycle' }, twentyAuth);
}
await api.post(`/games/${twenty.body.id}/resign`, undefined, twentyAuth);
await stored('a game of 19 draws, resigned', twenty.body);
const line = winningLines.lines[0]!;
const won = await api.post('/games', { deck: line.deck });
for (const move of line.moves)
  await api.post(`/games/${won.body.id}/moves`, move, { authorization: `Bearer ${won.body.token}` });
await stored('a game won along a winning line', won.body);
await runtime.stop();
