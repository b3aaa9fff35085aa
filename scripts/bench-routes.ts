/**
 * What a move costs the store when every route runs in processes of its own, as in Lambda
 * (`npm run bench:routes [-- --containers N]`): items read, items written, and failed conditional
 * puts per action, counted by a proxy in front of dynalite. Players play ordinary games: mostly
 * moves and draws, an undo now and then, a redo after some undos.
 */
import '../infra/local/node-support.js';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { ENDPOINT_ENV, TABLE_ENV } from '../functions/routes.js';
import { isolatedRoutes } from '../infra/local/isolated.js';
import { startServer } from '../infra/local/server.js';
import { startLocalStore } from '../infra/local/store.js';
import { client, newGame } from '../test/support/local.js';

const { values } = parseArgs({
  options: { containers: { type: 'string' }, players: { type: 'string' }, actions: { type: 'string' } },
});
const CONTAINERS = Number(values.containers ?? 1);
const PLAYERS = Number(values.players ?? 4);
const ACTIONS = Number(values.actions ?? 150);

process.env.LOG_LEVEL = 'SILENT';
const store = await startLocalStore();
const counts = { queries: 0, itemsRead: 0, gets: 0, puts: 0, failedPuts: 0 };
const target = new URL(store.endpoint);
// A proxy that reads what dynalite answers: items a Query returned, puts that failed their condition.
const proxy: Server = createServer((incoming, outgoing) => {
  const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1];
  const upstream = forward(
    {
      host: target.hostname,
      port: target.port,
      path: incoming.url,
      method: incoming.method,
      headers: incoming.headers,
    },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString();
        if (operation === 'Query') {
          counts.queries++;
          counts.itemsRead += (JSON.parse(text) as { Count?: number }).Count ?? 0;
        } else if (operation === 'GetItem') counts.gets++;
        else if (operation === 'PutItem') {
          if (text.includes('ConditionalCheckFailedException')) counts.failedPuts++;
          else counts.puts++;
        }
        outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
        outgoing.end(body);
      });
    },
  );
  incoming.pipe(upstream);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
process.env[ENDPOINT_ENV] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
process.env[TABLE_ENV] = store.tableName;
const routes = await isolatedRoutes({ containers: CONTAINERS });
const { server, url } = await startServer({ port: 0, handlers: routes.handlers });
const api = client(url);

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

// Warm every route up, then count from zero.
await play(1000);
Object.assign(counts, { queries: 0, itemsRead: 0, gets: 0, puts: 0, failedPuts: 0 });
const started = performance.now();
const played = await Promise.all(Array.from({ length: PLAYERS }, (_, i) => play(i + 1)));
const seconds = (performance.now() - started) / 1000;
const actions = played.reduce((sum, game) => sum + game.actions, 0);
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
server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await routes.close();
proxy.close();
await store.close();
