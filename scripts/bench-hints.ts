/**
 * What one player sees while others ask for hints (`npm run bench:hints [-- --isolated] [--rounds N]
 * [--hints N]`): `npm start` is spawned as a user runs it, and in each round N hints (10 by default)
 * run at once on N games while another player reads their own game (`GET /games/{id}`) again and again.
 * It prints the time from spawn to the first answer (any answer, and the first that is not 503
 * `starting`) and to the banner, that player's GET latencies (p50, p95, max) during the hints, and every status the
 * hints got (docs/api.md, "The local runtime answers every request": p95 well under 100 ms,
 * no request refused for the store).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import { client, newGame } from '../test/support/local.js';
import { percentile } from './stats.js';

const USAGE = 'npm run bench:hints -- [--isolated] [--rounds X] [--hints X]';
const { values } = parseScriptArgs(
  {
    options: {
      isolated: { type: 'boolean' },
      rounds: { type: 'string' },
      hints: { type: 'string' },
    },
  },
  USAGE,
);
const ROUNDS = wholeNumber('rounds', values.rounds ?? '5', 1, 1_000, USAGE);
const HINTS = wholeNumber('hints', values.hints ?? '10', 1, 1_000, USAGE);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const spawned = performance.now();
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'infra/local/main.ts',
    '--port',
    String(port),
    ...(values.isolated ? ['--isolated'] : []),
  ],
  { env: { ...process.env, LOG_LEVEL: 'SILENT' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
let bannerMs: number | undefined;
let printed = '';
child.stdout.on('data', (chunk: Buffer) => {
  printed += chunk.toString();
  if (bannerMs === undefined && printed.includes('Ctrl-C stops it.')) bannerMs = performance.now() - spawned;
});
const exited = new Promise<never>((_, reject) =>
  child.once('exit', (code) => reject(new Error(`npm start exited (${code})`))),
);

/**
 * Polls until the runtime answers at all, and until it answers other than 503 `starting`; a request
 * accepted and left unanswered for 5 s is counted and given up.
 */
async function firstAnswers(): Promise<{ any: number; ready: number; hung: number }> {
  let any: number | undefined;
  let hung = 0;
  for (;;) {
    const answer = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(5_000) }).catch(
      (error: Error) => {
        if (error.name === 'TimeoutError') hung++;
        return undefined;
      },
    );
    if (answer) {
      any ??= performance.now() - spawned;
      await answer.arrayBuffer();
      if (answer.status !== 503) return { any, ready: performance.now() - spawned, hung };
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

try {
  const start = await Promise.race([firstAnswers(), exited]);
  const api = client(url);
  const reader = await newGame(api, { seed: 1 });
  const games = await Promise.all(Array.from({ length: HINTS }, (_, i) => newGame(api, { seed: 100 + i })));
  // Every route warmed up once, as a player's first calls would.
  await api.get(`/games/${games[0]!.id}/hint`, games[0]!.auth);
  await api.get(`/games/${reader.id}`, reader.auth);

  const latencies: number[] = [];
  const hintMs: number[] = [];
  const statuses = new Map<string, number>();
  let readerStatuses = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let running = true;
    const hints = Promise.all(
      games.map(async (game) => {
        const asked = performance.now();
        const answer = await api.get(`/games/${game.id}/hint`, game.auth);
        hintMs.push(performance.now() - asked);
        const label = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.type ?? ''}`;
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
      }),
    ).finally(() => {
      running = false;
    });
    while (running) {
      const asked = performance.now();
      const answer = await api.get(`/games/${reader.id}`, reader.auth);
      latencies.push(performance.now() - asked);
      if (answer.status !== 200) readerStatuses++;
    }
    await hints;
  }
  latencies.sort((a, b) => a - b);
  hintMs.sort((a, b) => a - b);
  console.log(
    `npm start${values.isolated ? ' -- --isolated' : ''}, ${HINTS} hints at once, ${ROUNDS} rounds`,
  );
  console.log(
    `  spawn to first answer  ${ms(start.any)}; to first answer not 503  ${ms(start.ready)}; requests left hanging 5 s: ${start.hung}; banner at ${ms(bannerMs ?? Number.NaN)}`,
  );
  console.log(
    `  another player's GET   n=${latencies.length}  p50 ${ms(percentile(latencies, 0.5))}  p95 ${ms(percentile(latencies, 0.95))}  max ${ms(latencies.at(-1) ?? Number.NaN)}  not 200: ${readerStatuses}`,
  );
  console.log(
    `  hints                  ${[...statuses].map(([label, count]) => `${label}: ${count}`).join(', ')}; took p50 ${ms(percentile(hintMs, 0.5))}, max ${ms(hintMs.at(-1) ?? Number.NaN)}`,
  );
} finally {
  child.kill('SIGTERM');
}
