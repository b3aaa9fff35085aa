/**
 * What an action costs the store when every route runs in processes of its own, as in Lambda
 * (`npm run bench:routes [-- --containers N --players N --actions N --autoplay]`): requests, items
 * read, puts written and refused, and the read and write units the store reports, per action. Players
 * play ordinary games: mostly moves and draws, an undo now and then, a redo after some undos; with
 * `--autoplay`, an autoplay after every tenth action too.
 */
import { SNAPSHOT_EVERY } from '../functions/store/events.js';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import { startRuntime } from '../infra/local/runtime.js';
import { client, newGame } from '../test/support/local.js';

const USAGE = 'npm run bench:routes -- [--containers X] [--players X] [--actions X] [--autoplay]';
const { values } = parseScriptArgs(
  {
    options: {
      containers: { type: 'string' },
      players: { type: 'string' },
      actions: { type: 'string' },
      autoplay: { type: 'boolean' },
    },
  },
  USAGE,
);
const CONTAINERS = wholeNumber('containers', values.containers ?? '1', 1, 64, USAGE);
const PLAYERS = wholeNumber('players', values.players ?? '4', 1, 1_000, USAGE);
const ACTIONS = wholeNumber('actions', values.actions ?? '150', 1, 10_000, USAGE);

process.env.LOG_LEVEL = 'SILENT';
// The meter in front of dynalite counts what the store answers and what it says each answer cost.
const runtime = await startRuntime({ port: 0, isolated: true, containers: CONTAINERS, meter: true });
const { requests, counts: metered } = runtime.meter!;
const api = client(runtime.url);
const snapshot = () => ({
  queries: requests.get('Query') ?? 0,
  gets: requests.get('GetItem') ?? 0,
  puts: (requests.get('PutItem') ?? 0) - metered.failedPuts,
  ...metered,
});

/** One player's game: a seeded deal on unlimited passes, played by a simple habit. */
async function play(seed: number) {
  const game = await newGame(api, { seed, rules: { passes: null } });
  let view = game.created.body;
  let actions = 0;
  let undos = 0;
  let events = 0;
  for (let i = 0; i < ACTIONS && view.status === 'playing'; i++) {
    const roll = (seed * 7919 + i * 104729) % 100;
    const moves = view.legalMoves.filter((move: { type: string }) => move.type === 'move');
    const move = moves.length > 0 && roll % 3 !== 0 ? moves[roll % moves.length] : view.legalMoves[0];
    const undo = roll < 8 && view.canUndo;
    if (undo) undos++;
    const answer = undo
      ? await api.post(`/games/${game.id}/undo`, undefined, game.auth)
      : values.autoplay && i % 10 === 9
        ? await api.post(`/games/${game.id}/autoplay`, undefined, game.auth)
        : roll < 11 && view.canRedo
          ? await api.post(`/games/${game.id}/redo`, undefined, game.auth)
          : await api.post(`/games/${game.id}/moves`, move, game.auth);
    if (answer.status !== 200) throw new Error(`${answer.status} at version ${view.version}: ${answer.text}`);
    actions++;
    events += answer.body.version - view.version;
    view = answer.body;
  }
  return { actions, undos, events };
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
  Object.entries(after).map(([name, n]) => [name, (n as number) - before[name as keyof typeof before]]),
) as typeof after;
const events = played.reduce((sum, game) => sum + game.events, 0);
const per = (n: number) => (n / actions).toFixed(2);
console.log(
  `\n${PLAYERS} players, ${actions} actions (${played.reduce((s, g) => s + g.undos, 0)} undos), every route in its own process, ${CONTAINERS} container(s) a route, ${seconds.toFixed(1)} s`,
);
console.log(
  `per action: Query ${per(counts.queries)}, items read ${per(counts.itemsRead)}, GetItem ${per(counts.gets)}`,
);
console.log(
  `per action: puts written ${per(counts.puts)}, failed conditional puts ${per(counts.failedPuts)} (${(events / actions).toFixed(2)} events an action)`,
);
console.log(
  `per action: read units ${per(counts.readUnits)}, write units ${per(counts.writeUnits)} (as the store reports them; snapshot every ${SNAPSHOT_EVERY} versions)`,
);
await runtime.stop();
