/**
 * What a move costs the store when every route runs in processes of its own, as in Lambda
 * (`npm run bench:routes [-- --containers N]`): items read, items written, and failed conditional
 * puts per action, counted by the local change stream's proxy in front of dynalite. Players play ordinary games: mostly
 * moves and draws, an undo now and then, a redo after some undos.
 */
import '../infra/local/node-support.js';
import { parseArgs } from 'node:util';
import { startRuntime } from '../infra/local/runtime.js';
import { client, newGame } from '../test/support/local.js';

const { values } = parseArgs({
  options: { containers: { type: 'string' }, players: { type: 'string' }, actions: { type: 'string' } },
});
const CONTAINERS = Number(values.containers ?? 1);
const PLAYERS = Number(values.players ?? 4);
const ACTIONS = Number(values.actions ?? 150);

process.env.LOG_LEVEL = 'SILENT';
// The change stream's proxy in front of dynalite counts what the store answers.
const runtime = await startRuntime({ port: 0, isolated: true, containers: CONTAINERS });
const api = client(runtime.url);
const snapshot = () => ({
  queries: runtime.requests.get('Query') ?? 0,
  gets: runtime.requests.get('GetItem') ?? 0,
  puts: (runtime.requests.get('PutItem') ?? 0) - runtime.counts.failedPuts,
  ...runtime.counts,
});

/** One player's game: a seeded deal on unlimited passes, played by a simple habit. */
async function play(seed: number) {
  const game = await newGame(api, { seed, rules: { passes: null } });
  let view = game.created.body;
  let actions = 0;
  let undos = 0;
  for (let i = 0; i < ACTIONS && view.status === 'playing'; i++) {
    const roll = (seed * 7919 + i * 104729) % 100;
    const moves = view.legalMoves.filter((move: { type: string }) => move.type === 'move');
    const move = moves.length > 0 && roll % 3 !== 0 ? moves[roll % moves.length] : view.legalMoves[0];
    const undo = roll < 8 && view.canUndo;
    if (undo) undos++;
    const answer = undo
      ? await api.post(`/games/${game.id}/undo`, undefined, game.auth)
      : roll < 11 && view.canRedo
        ? await api.post(`/games/${game.id}/redo`, undefined, game.auth)
        : await api.post(`/games/${game.id}/moves`, move, game.auth);
    if (answer.status !== 200) throw new Error(`${answer.status} at version ${view.version}: ${answer.text}`);
    if (answer.body.version !== view.version) actions++;
    view = answer.body;
  }
  return { actions, undos };
}

// Warm every route up, then count from there.
await play(1000);
const before = snapshot();
const started = performance.now();
const played = await Promise.all(Array.from({ length: PLAYERS }, (_, i) => play(i + 1)));
const seconds = (performance.now() - started) / 1000;
const actions = played.reduce((sum, game) => sum + game.actions, 0);
const after = snapshot();
const counts = Object.fromEntries(
  Object.entries(after).map(([name, n]) => [name, n - before[name as keyof typeof before]]),
) as typeof after;
const per = (n: number) => (n / actions).toFixed(2);
console.log(
  `\n${PLAYERS} players, ${actions} actions (${played.reduce((s, g) => s + g.undos, 0)} undos), every route in its own process, ${CONTAINERS} container(s) a route, ${seconds.toFixed(1)} s`,
);
console.log(
  `per action: Query ${per(counts.queries)}, items read ${per(counts.itemsRead)}, GetItem ${per(counts.gets)}`,
);
console.log(
  `per action: puts written ${per(counts.puts)}, failed conditional puts ${per(counts.failedPuts)}`,
);
await runtime.stop();
