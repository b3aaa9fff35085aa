/**
 * The read side under load (`npm run bench:projection`), on the local runtime and its change stream:
 *  - projection lag: from a write's answer to its record projected into the read models (median,
 *    p99), while signed-in players write as fast as the store benchmark's throughput load;
 *  - projector throughput against the write rate, and how long the backlog takes to drain after;
 *  - the store requests of GET /me/stats for a player with 1,000 games (goal: one read).
 */

import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';

const USAGE = 'npm run bench:projection -- [--games N] [--seconds S]';
const { values } = parseScriptArgs(
  { options: { games: { type: 'string' }, seconds: { type: 'string' } } },
  USAGE,
);
const GAMES = wholeNumber('games', values.games ?? '1000', 1, 1_000_000, USAGE);
const SECONDS = wholeNumber('seconds', values.seconds ?? '5', 1, 3_600, USAGE);
const WORKERS = 8;

// Before the handlers load (the runtime loads them): their logger reads it once.
process.env.LOG_LEVEL ??= 'SILENT';
const { client } = await import('../test/support/local.js');
const { startTimedRuntime } = await import('./timed-runtime.js');
const projectedAt = new Map<string, number>();
const runtime = await startTimedRuntime((record, at) => {
  const key = `${record.dynamodb!.Keys!.pk!.S}#${record.dynamodb!.Keys!.sk!.N}`;
  if (!projectedAt.has(key)) projectedAt.set(key, at);
});
const api = client(runtime.url);
const signIn = async (player: string) => ({
  authorization: `Bearer ${(await api.post('/dev/tokens', { player })).body.token}`,
});
const at = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

// Load: WORKERS players, each on their own game (unlimited passes), drawing and recycling.
const answeredAt = new Map<string, number>();
const players = await Promise.all(
  Array.from({ length: WORKERS }, async (_, i) => {
    const auth = await signIn(`load-${i}`);
    const created = await api.post('/games', { seed: i, rules: { passes: null } }, auth);
    return { auth, id: created.body.id as string, stock: 24 };
  }),
);
await runtime.settled();
let writes = 0;
const started = performance.now();
const deadline = started + SECONDS * 1000;
await Promise.all(
  players.map(async (player) => {
    while (performance.now() < deadline) {
      const type = player.stock === 0 ? 'recycle' : 'draw';
      const answer = await api.post(`/games/${player.id}/moves`, { type }, player.auth);
      answeredAt.set(`${player.id}#${answer.body.version}`, performance.now());
      player.stock = answer.body.stock.count;
      writes++;
    }
  }),
);
const loadSeconds = (performance.now() - started) / 1000;
const projectedDuringLoad = [...answeredAt.keys()].filter(
  (key) => (projectedAt.get(key) ?? Infinity) <= deadline,
).length;
const drainStarted = performance.now();
await runtime.settled();
const drainMs = performance.now() - drainStarted;
const lags = [...answeredAt]
  .map(([key, answered]) => Math.max(0, projectedAt.get(key)! - answered))
  .sort((a, b) => a - b);

// A player with GAMES games: what one GET /me/stats reads.
const many = await signIn('many-games');
const creating = performance.now();
for (let done = 0; done < GAMES; done += WORKERS) {
  await Promise.all(
    Array.from({ length: Math.min(WORKERS, GAMES - done) }, () => api.post('/games', { seed: 1 }, many)),
  );
}
await runtime.settled();
const createSeconds = (performance.now() - creating) / 1000;
const before = new Map(runtime.meter!.requests);
const stats = await api.get('/me/stats', many);
const reads = [...runtime.meter!.requests]
  .map(([operation, count]) => [operation, count - (before.get(operation) ?? 0)] as const)
  .filter(([, n]) => n > 0);

console.log(
  `\nKlondike read side (node ${process.version}, local runtime, dynalite in memory, ${WORKERS} players writing)`,
);
console.log(
  `writes: ${writes} in ${loadSeconds.toFixed(1)} s (${(writes / loadSeconds).toFixed(0)}/s); projected during the load: ${projectedDuringLoad} (${((100 * projectedDuringLoad) / writes).toFixed(1)}%)`,
);
console.log(
  `projection lag from the write's answer: median ${at(lags, 0.5).toFixed(1)} ms, p99 ${at(lags, 0.99).toFixed(1)} ms, max ${lags.at(-1)!.toFixed(1)} ms`,
);
console.log(`backlog drained ${drainMs.toFixed(0)} ms after the load stopped`);
console.log(
  `${GAMES} games for one player: dealt and projected in ${createSeconds.toFixed(1)} s; /me/stats says started ${stats.body.started}`,
);
console.log(`GET /me/stats store requests: ${reads.map(([operation, n]) => `${operation} ${n}`).join(', ')}`);
await runtime.stop();
