/**
 * The daily deal under a crowd (`npm run bench:daily [-- --players 500 --clients 16]`), on the local
 * runtime: every player signs in, takes today's game and wins it, as fast as the clients go; then the
 * whole leaderboard is read a page at a time. It prints:
 *  - finishes a second, and the projection lag from each winning answer to its attempt on the
 *    leaderboard's index (median, p99, max);
 *  - what the store was asked per finish, by table: requests, items read and written, and the read
 *    and write units the store reports (the index's own writes are not in dynalite's figures: one a
 *    finisher, and one more when the shard's count marks the attempt);
 *  - the same per page of 100 of the leaderboard, and that the pages hold every finisher once.
 * Today's deal is one a player wins in 34 requests (an autoplay takes the 28 tableau cards home;
 * eight times, a draw and three moves take the stock home), so the clients finish games quickly.
 */
import { dayOf } from '../domain/index.js';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import type { TableCounts } from '../infra/local/meter.js';
import { quickDeck } from './quick-deck.js';

// Before the handlers load (the test support loads them too): their logger reads it once.
process.env.LOG_LEVEL ??= 'SILENT';
const { client } = await import('../test/support/local.js');
const { keepDailyDeal } = await import('../functions/store/daily.js');
const { startTimedRuntime } = await import('./timed-runtime.js');

const USAGE = 'npm run bench:daily -- [--players N] [--clients N]';
const { values } = parseScriptArgs(
  { options: { players: { type: 'string' }, clients: { type: 'string' } } },
  USAGE,
);
const PLAYERS = wholeNumber('players', values.players ?? '500', 1, 100_000, USAGE);
const CLIENTS = wholeNumber('clients', values.clients ?? '16', 1, 1_000, USAGE);
const LAST_VERSION = 60;

const projectedAt = new Map<string, number>();
const runtime = await startTimedRuntime((record, at) => {
  const image = record.dynamodb?.NewImage;
  const last = Number(record.dynamodb?.Keys?.sk?.N ?? 0) + (image?.events?.L?.length ?? 1) - 1;
  const game = record.dynamodb?.Keys?.pk?.S ?? '';
  if (last === LAST_VERSION && !projectedAt.has(game)) projectedAt.set(game, at);
});
const api = client(runtime.url);
const day = dayOf(Date.now());
await keepDailyDeal(day, quickDeck(), new Date().toISOString());

const tokens = await Promise.all(
  Array.from({ length: PLAYERS }, (_, i) => runtime.issuer!.tokenFor(`crowd-${i}`)),
);
const snapshot = () =>
  new Map([...runtime.meter!.tables].map(([name, counts]) => [name, { ...counts }] as const));
const difference = (before: Map<string, TableCounts>) =>
  [...runtime.meter!.tables].map(([name, after]) => {
    const was = before.get(name) ?? {
      requests: 0,
      itemsRead: 0,
      itemsWritten: 0,
      readUnits: 0,
      writeUnits: 0,
    };
    return [
      name,
      Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - was[k as keyof TableCounts]])),
    ] as const;
  });

let retried = 0;

/** A write as a careful client sends it: under an Idempotency-Key, retried with it after a 503 or 409. */
async function write(path: string, body: unknown, auth: Record<string, string>) {
  const headers = { ...auth, 'idempotency-key': crypto.randomUUID() };
  for (let attempt = 1; ; attempt++) {
    const answer = await api.post(path, body, headers);
    if ((answer.status !== 503 && answer.status !== 409) || attempt === 10) return answer;
    retried++;
    await new Promise((resolve) =>
      setTimeout(resolve, 1000 * Number(answer.headers.get('retry-after') ?? 1)),
    );
  }
}

async function finish(i: number): Promise<[string, number]> {
  const auth = { authorization: `Bearer ${tokens[i]}` };
  const created = await write('/daily/games', undefined, auth);
  // 200: a retry after a 503 whose first attempt dealt the game (the same game, as it stands).
  if (created.status !== 201 && created.status !== 200) throw new Error(`${created.status}: ${created.text}`);
  const id = created.body.id as string;
  let view = (await write(`/games/${id}/autoplay`, undefined, auth)).body;
  for (let draw = 0; draw < 8; draw++) {
    const drawn = await write(`/games/${id}/moves`, { type: 'draw' }, auth);
    if (drawn.status !== 200) throw new Error(`a draw answered ${drawn.status}: ${drawn.text}`);
    // Autoplay leaves the waste alone while a recycle is left (it would change later passes).
    for (let card = 0; card < 3; card++) {
      view = (await write(`/games/${id}/moves`, { type: 'move', from: 'waste', to: 'foundation' }, auth))
        .body;
    }
  }
  if (view.status !== 'won' || view.version !== LAST_VERSION)
    throw new Error(`not won: ${JSON.stringify(view)}`);
  return [id, performance.now()];
}

const before = snapshot();
const started = performance.now();
const wonAt = new Map<string, number>();
let given = 0;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (given < PLAYERS) {
      const [id, at] = await finish(given++);
      wonAt.set(id, at);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await runtime.settled();
const lags = [...wonAt].map(([id, at]) => projectedAt.get(id)! - at).sort((a, b) => a - b);
const at = (p: number) => lags[Math.min(lags.length - 1, Math.floor(lags.length * p))]!;
const perFinish = difference(before);

const beforePages = snapshot();
let pages = 0;
let entries = 0;
let cursor: string | undefined;
do {
  const page = await api.get(`/daily/${day}/leaderboard?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
  entries += page.body.entries.length;
  cursor = page.body.next ?? undefined;
  pages++;
} while (cursor);
const perPage = difference(beforePages);

const per = (n: number, by: number) => (n / by).toFixed(2);
console.log(
  `\nKlondike daily deal (node ${process.version}, local runtime, dynalite in memory, ${CLIENTS} clients)`,
);
console.log(
  `${PLAYERS} players won today's deal in ${seconds.toFixed(1)} s: ${(PLAYERS / seconds).toFixed(1)} finishes/s, ${((34 * PLAYERS) / seconds).toFixed(0)} requests/s`,
);
console.log(`writes retried after a 503 or 409 (same Idempotency-Key): ${retried}`);
console.log(
  `projection lag, winning answer to the leaderboard: median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${lags.at(-1)!.toFixed(1)} ms`,
);
for (const [table, counts] of perFinish) {
  console.log(
    `per finish, ${table}: ${per(counts.requests!, PLAYERS)} requests, ${per(counts.itemsRead!, PLAYERS)} items read, ${per(counts.itemsWritten!, PLAYERS)} written, ${per(counts.readUnits!, PLAYERS)} read units, ${per(counts.writeUnits!, PLAYERS)} write units`,
  );
}
console.log(
  `leaderboard: ${entries} entries in ${pages} pages of 100 (${entries === PLAYERS ? 'every finisher once' : 'MISSING ENTRIES'})`,
);
for (const [table, counts] of perPage) {
  if (counts.requests === 0) continue;
  console.log(
    `per page, ${table}: ${per(counts.requests!, pages)} requests, ${per(counts.itemsRead!, pages)} items read, ${per(counts.readUnits!, pages)} read units`,
  );
}
await runtime.stop();
