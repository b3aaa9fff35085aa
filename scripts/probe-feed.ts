/**
 * Does every write the store holds reach the read models? (`npm run probe:feed [-- --games 12]`)
 * Two scenarios against `npm start` as a user runs it, each counting the rows of `/me/games` that
 * disagree with their game's log (expected: none):
 *  1. one player resigns N games while other players ask N hints at once (the solver busy, store
 *     calls slow): rows checked 2 s after the last answer;
 *  2. `npm start -- --data DIR`, writes on N games, then `kill -9` the runtime and start it again on
 *     the folder: rows checked 5 s after the restart began serving.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import { type Client, client } from '../test/support/local.js';

const USAGE = 'npm run probe:feed -- [--games N]';
const { values } = parseScriptArgs({ options: { games: { type: 'string' } } }, USAGE);
const GAMES = wholeNumber('games', values.games ?? '12', 1, 1_000, USAGE);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function start(args: string[]): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'SILENT' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /serving on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
  });
  return { child, url };
}

const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

const signIn = async (api: Client, player: string) => ({
  authorization: `Bearer ${(await api.post('/dev/tokens', { player })).body.token}`,
});

/** The rows of the player's games that disagree with the log (status or version). */
async function mismatched(api: Client, auth: Record<string, string>, ids: readonly string[]) {
  const rows = new Map<string, { status: string; version: number }>(
    (
      (await api.get('/me/games?limit=100', auth)).body.games as {
        id: string;
        status: string;
        version: number;
      }[]
    ).map((row) => [row.id, row]),
  );
  let wrong = 0;
  for (const id of ids) {
    const game = (await api.get(`/games/${id}`, auth)).body;
    const row = rows.get(id);
    if (!row || row.status !== game.status || row.version !== game.version) wrong++;
  }
  return wrong;
}

/** Rows found disagreeing with the log, in both probes. */
let disagreeing = 0;

// 1. Resignations while the solver is busy.
{
  const { child, url } = start([]);
  const api = client(await url);
  const player = await signIn(api, 'probe-resigner');
  const other = await signIn(api, 'probe-hinter');
  const ids: string[] = [];
  for (let i = 0; i < GAMES; i++) ids.push((await api.post('/games', { seed: 100 + i }, player)).body.id);
  const hinted: string[] = [];
  for (let i = 0; i < GAMES; i++) hinted.push((await api.post('/games', { seed: 200 + i }, other)).body.id);
  const answers = await Promise.all([
    ...ids.map((id) => api.post(`/games/${id}/resign`, undefined, player)),
    ...hinted.map((id) => api.get(`/games/${id}/hint`, other)),
  ]);
  const statuses = answers.map((answer) => answer.status);
  await pause(2_000);
  const wrong = await mismatched(api, player, ids);
  disagreeing += wrong;
  console.log(
    `1. ${GAMES} resignations during ${GAMES} hints: answers ${[...new Set(statuses)].map((s) => `${s} x${statuses.filter((t) => t === s).length}`).join(', ')}; rows disagreeing with the log 2 s later: ${wrong} of ${GAMES}`,
  );
  await stop(child, 'SIGTERM');
}

// 2. kill -9, then a restart on the same folder.
{
  const dir = mkdtempSync(join(tmpdir(), 'klondike-probe-'));
  try {
    const first = start(['--data', dir]);
    const api = client(await first.url);
    const player = await signIn(api, 'probe-killed');
    const ids: string[] = [];
    let writes = 0;
    for (let i = 0; i < GAMES; i++) {
      const id = (await api.post('/games', { seed: 300 + i }, player)).body.id as string;
      ids.push(id);
      writes++;
      for (let move = 0; move < 1 + (i % 3); move++) {
        await api.post(`/games/${id}/moves`, { type: 'draw' }, player);
        writes++;
      }
    }
    await stop(first.child, 'SIGKILL');
    const second = start(['--data', dir]);
    const again = client(await second.url);
    await pause(5_000);
    const stale = await mismatched(again, await signIn(again, 'probe-killed'), ids);
    disagreeing += stale;
    console.log(
      `2. kill -9 after ${writes} acknowledged writes on ${GAMES} games, restart on the --data folder: rows stale 5 s later: ${stale} of ${GAMES}`,
    );
    await stop(second.child, 'SIGTERM');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
// A probe that finds rows disagreeing with the log fails (exit 1): the goal is none.
if (disagreeing > 0) process.exitCode = 1;
