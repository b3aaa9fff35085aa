import './node-support.js';
import { parseArgs } from 'node:util';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { banner, type DataPlace } from './banner.js';
import { isolatedRoutes } from './isolated.js';
import { startServer } from './server.js';
import { buildSite, loadSite } from './site.js';
import { ensureTable, FolderInUse, LOCAL_TABLE, type LocalStore, startLocalStore } from './store.js';

/**
 * `npm start`: the whole service on a laptop, no AWS account. An embedded dynalite (in memory, or
 * in a folder with --data DIR / KLONDIKE_DATA_DIR), the table, and every route of the route table on
 * http://127.0.0.1:$PORT (3000 by default) with the same handlers Lambda runs, and the web client
 * at `/`. With DYNAMODB_ENDPOINT set (and TABLE_NAME, default klondike-local), it uses that
 * DynamoDB-compatible store instead and creates the table there if it is missing.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p' },
    data: { type: 'string', short: 'd' },
    host: { type: 'string' },
    isolated: { type: 'boolean' },
  },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const dataDir = values.data ?? process.env.KLONDIKE_DATA_DIR;
const external = process.env[ENDPOINT_ENV];

async function openStore(): Promise<{ store?: LocalStore; data: DataPlace }> {
  if (external) {
    const table = process.env[TABLE_ENV] ?? LOCAL_TABLE;
    await ensureTable(external, table);
    process.env[TABLE_ENV] = table;
    return { data: { kind: 'external', where: `table ${table} at ${external}` } };
  }
  const store = await startLocalStore(dataDir ? { dataDir } : {});
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[TABLE_ENV] = store.tableName;
  return { store, data: dataDir ? { kind: 'folder', dir: dataDir } : { kind: 'memory' } };
}

let opened: Awaited<ReturnType<typeof openStore>>;
try {
  opened = await openStore();
} catch (error) {
  console.error(
    error instanceof FolderInUse ? error.message : `Could not open the store: ${(error as Error).message}`,
  );
  process.exit(1);
}
// The web client is built from its sources on every start (under a second), so a fresh clone
// needs nothing but `npm install` and the page always matches the code beside it.
const builtAt = performance.now();
const site = loadSite(await buildSite());
const buildMs = Math.round(performance.now() - builtAt);
// --isolated: every route in a process of its own, as Lambda runs them (nothing shared in memory).
const routes = values.isolated ? await isolatedRoutes() : undefined;
const { server, url } = await startServer({
  port,
  host: values.host ?? '127.0.0.1',
  site,
  ...(routes ? { handlers: routes.handlers } : {}),
});
console.log(banner({ url, data: opened.data, webBuildMs: buildMs, isolated: Boolean(routes) }).join('\n'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: shutting down`);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await routes?.close();
  await opened.store?.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
