/**
 * Store and API benchmark (issue 3), run by `npm run bench:store`:
 *  - move latency through the local API at version ~10 vs ~1,000 (goal: ratio <= 1.3);
 *  - a keyed retry's latency at version ~6,000, ten actions after the keyed one;
 *  - items read per move (bounded by the snapshot interval);
 *  - moves/s through the local API vs raw conditional PutItem/s on the same dynalite (goal >= 0.5);
 *  - the size of a snapshot item for a 5,000-event game.
 * Everything runs on loopback in this process: dynalite, the local runtime and the clients.
 */
import { gzipSync } from 'node:zlib';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { fold, toSnapshot } from '../domain/index.js';
import { parseScriptArgs } from '../infra/local/args.js';
import { longGame } from '../test/bench/games.js';
import { percentileOf } from './stats.js';

// No options: anything else given is refused, with the usage.
parseScriptArgs({ options: {} }, 'npm run bench:store');
// Before the handlers load: their logger reads it once.
process.env.LOG_LEVEL ??= 'SILENT';
const { documentClient } = await import('../functions/store/client.js');
const { loadGame, SNAPSHOT_EVERY } = await import('../functions/store/events.js');
const { client, newGame, startLocal } = await import('../test/support/local.js');

const local = await startLocal();
const api = client(local.url);
const median = (xs: number[]) => percentileOf(xs, 0.5);

/** A game on unlimited passes, played to `version` with draws and recycles. */
async function gameAt(version: number) {
  const game = await newGame(api, { seed: 7, rules: { passes: null } });
  let stock = 24;
  for (let v = 0; v < version; v++) {
    const type = stock === 0 ? 'recycle' : 'draw';
    const answer = await api.post(`/games/${game.id}/moves`, { type }, game.auth);
    stock = answer.body.stock.count;
  }
  return { ...game, stock };
}

/** Times `count` moves, each read (one bounded Query) and appended (one conditional put). */
async function timeMoves(game: Awaited<ReturnType<typeof gameAt>>, count: number) {
  const times: number[] = [];
  let stock = game.stock;
  for (let i = 0; i < count; i++) {
    const type = stock === 0 ? 'recycle' : 'draw';
    const started = performance.now();
    const answer = await api.post(`/games/${game.id}/moves`, { type }, game.auth);
    times.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`move failed: ${answer.text}`);
    stock = answer.body.stock.count;
  }
  game.stock = stock;
  return times;
}

// Warm up the handlers, the SDK and dynalite.
await timeMoves(await gameAt(5), 50);

const long = await gameAt(1000);
const times = { short: [] as number[], long: [] as number[] };
// Interleave the rounds so drift on a noisy machine hits all alike. Each round takes a new short game
// (versions 10..110), while the long one goes on from 1,000.
for (let round = 0; round < 6; round++) {
  const short = await gameAt(10);
  times.short.push(...(await timeMoves(short, 50)));
  times.long.push(...(await timeMoves(long, 50)));
}

// A retry under an Idempotency-Key, ten actions after its first answer, in a 6,000-event game: the
// first answer's view is loaded at its version (bounded), never folded from the deal.
const six = await gameAt(6000);
const retries: number[] = [];
for (let round = 0; round < 20; round++) {
  const headers = { ...six.auth, 'idempotency-key': `retry-${round}` };
  const type = six.stock === 0 ? 'recycle' : 'draw';
  const first = await api.post(`/games/${six.id}/moves`, { type }, headers);
  six.stock = first.body.stock.count;
  await timeMoves(six, 10);
  const started = performance.now();
  const again = await api.post(`/games/${six.id}/moves`, { type }, headers);
  retries.push(performance.now() - started);
  if (again.body.version !== first.body.version) throw new Error('the retry was applied again');
}

const itemsRead: number[] = [];
for (let v = 1000; v < 1000 + SNAPSHOT_EVERY; v++) itemsRead.push((await loadGame(long.id, v))!.itemsRead);

// Throughput: N concurrent players each on their own game, vs N concurrent raw conditional puts.
const WORKERS = 8;
const SECONDS = 4;
async function forSeconds(work: (worker: number) => Promise<void>) {
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      while (performance.now() < deadline) {
        await work(worker);
        done++;
      }
    }),
  );
  return done / SECONDS;
}
const players = await Promise.all(Array.from({ length: WORKERS }, () => gameAt(3)));
const stocks = players.map((player) => player.stock);
const movesPerSecond = await forSeconds(async (worker) => {
  const player = players[worker]!;
  const answer = await api.post(
    `/games/${player.id}/moves`,
    { type: stocks[worker] === 0 ? 'recycle' : 'draw' },
    player.auth,
  );
  stocks[worker] = answer.body.stock.count;
});
const next = Array.from({ length: WORKERS }, () => 0);
const putsPerSecond = await forSeconds(async (worker) => {
  await documentClient().send(
    new PutCommand({
      TableName: local.tableName,
      Item: {
        pk: `raw-${worker}`,
        sk: next[worker]!++,
        type: 'drawn',
        schema: 1,
        at: new Date().toISOString(),
        data: {},
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
});

const big = fold(longGame(5000));
const snapshotBytes = gzipSync(JSON.stringify({ state: toSnapshot(big), keys: [] })).length;

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(`\nKlondike store benchmark (node ${process.version}, dynalite in memory, loopback HTTP)`);
const latency = (label: string, short: number[], long: number[]) => {
  console.log(
    `${label} move latency at version ~10:    median ${fmt(median(short))}, p90 ${fmt(percentileOf(short, 0.9))} (${short.length} moves)`,
  );
  console.log(
    `${label} move latency at version ~1,000: median ${fmt(median(long))}, p90 ${fmt(percentileOf(long, 0.9))} (${long.length} moves)`,
  );
  console.log(
    `${label} ratio long/short (median):      ${(median(long) / median(short)).toFixed(2)}  (goal <= 1.3)`,
  );
};
latency('(1 Query + 1 put)', times.short, times.long);
console.log(
  `keyed retry at version ~6,000:  median ${fmt(median(retries))}, p90 ${fmt(percentileOf(retries, 0.9))} (${retries.length} retries, 10 actions after the first answer)`,
);
console.log(
  `items read per move:            max ${Math.max(...itemsRead)}, mean ${(itemsRead.reduce((a, b) => a + b, 0) / itemsRead.length).toFixed(1)} (snapshot every ${SNAPSHOT_EVERY})`,
);
console.log(`moves/s through the local API:  ${movesPerSecond.toFixed(0)} (${WORKERS} concurrent players)`);
console.log(`raw conditional puts/s:         ${putsPerSecond.toFixed(0)} (${WORKERS} concurrent writers)`);
console.log(`ratio API/raw:                  ${(movesPerSecond / putsPerSecond).toFixed(2)}  (goal >= 0.5)`);
console.log(
  `snapshot of a 5,000-event game: ${(snapshotBytes / 1024).toFixed(1)} KiB gzip (item limit 400 KB)`,
);
await local.stop();
