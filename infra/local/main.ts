import { networkInterfaces } from 'node:os';
import { ENDPOINT_ENV } from '../../functions/routes.js';
import { timeLimit } from '../../functions/timeScale.js';
import { parseScriptArgs } from './args.js';
import { banner, type DataPlace, type Exposure } from './banner.js';
import { startRuntime } from './runtime.js';
import { loadBuiltSite } from './site.js';

/**
 * `npm start`: the whole service on a laptop, no AWS account. An embedded dynalite (in memory, or
 * in a folder with --data DIR / KLONDIKE_DATA_DIR), its tables and change stream, a development
 * sign-in issuer, the web client, and every route of the route table on http://127.0.0.1:$PORT
 * (3000 by default) with the same handlers Lambda runs. With DYNAMODB_ENDPOINT set (and TABLE_NAME,
 * default klondike-local) it uses that DynamoDB-compatible store instead and creates the tables
 * there if they are missing (a --data folder then keeps only the runtime's own files: the change
 * feed's journal, the creation secret and the issuer's key); with OIDC_ISSUER and OIDC_AUDIENCE set
 * it trusts that issuer instead of its own. `--host ADDRESS` binds another address than 127.0.0.1 (0.0.0.0: every network of this
 * machine), and the banner then says who can reach it. `--help` says all this. A mistake on the
 * command line is its line and the usage on stderr, exit code 2; whatever else stops the start is
 * one line on stderr and exit code 1.
 */
const USAGE = 'npm start -- [--port N] [--data DIR] [--host ADDRESS] [--isolated]';
const { values } = parseScriptArgs(
  {
    options: {
      port: { type: 'string', short: 'p' },
      data: { type: 'string', short: 'd' },
      host: { type: 'string' },
      isolated: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  },
  USAGE,
);
if (values.help) {
  console.log(`usage: ${USAGE}

  --port N, -p N      the port (default: PORT, else 3000; 0 takes a free one)
  --data DIR, -d DIR  keep the games in this folder (default: KLONDIKE_DATA_DIR, else in memory);
                      with DYNAMODB_ENDPOINT, only the change feed's journal and the runtime's keys
  --host ADDRESS      the address to bind (default 127.0.0.1; 0.0.0.0 is every network)
  --isolated          every route in a process of its own, as Lambda runs them

Environment variables (DYNAMODB_ENDPOINT, OIDC_ISSUER, ...): docs/operations.md.`);
  process.exit(0);
}
// PORT set but empty is unset, as the other variables are.
const portText = values.port ?? (process.env.PORT?.trim() || '3000');
const port = Number(portText);
if (!/^\d+$/.test(portText.trim()) || port > 65_535) {
  console.error(
    `${values.port !== undefined ? '--port' : 'PORT'} takes a port number (0 to 65535), not ${JSON.stringify(portText)}.\nusage: ${USAGE}`,
  );
  process.exit(2);
}
if (values.data?.trim() === '') {
  console.error(
    `--data takes a folder, not an empty name (leave it out to keep the games in memory).\nusage: ${USAGE}`,
  );
  process.exit(2);
}
// KLONDIKE_DATA_DIR set but empty is unset, as the other variables are.
const dataDir = values.data ?? (process.env.KLONDIKE_DATA_DIR?.trim() || undefined);
// Read before the runtime starts: it points this variable at its own change-stream proxy. With it,
// a --data folder keeps the runtime's own files (the change feed's journal, its keys), not the store.
const external = Boolean(process.env[ENDPOINT_ENV]);

// The web client is built from its sources at start (about a second, while the store and the routes
// start), or its last build read while none of its sources changed (./build-cache.ts), so a fresh
// clone needs nothing but `npm install` and the page always matches the code beside it.
const builtAt = performance.now();
let buildMs = 0;
const site = loadBuiltSite().then((built) => {
  buildMs = Math.round(performance.now() - builtAt);
  return built;
});
// A start that fails before it needs the site must not also report the site's own failure.
site.catch(() => {});

/**
 * How long after this process began an outside store (DYNAMODB_ENDPOINT) may take to answer and have
 * its tables ready: what is left of it when the modules have loaded (a second or more, longer on a
 * busy machine) is the store's, so one that cannot be used ends the start within 10 s.
 */
const STORE_DEADLINE_MS = 8_000;

const host = values.host ?? '127.0.0.1';
if (host.trim() === '') {
  console.error(`--host takes an address (127.0.0.1, 0.0.0.0, ::1 ...), not an empty one.\nusage: ${USAGE}`);
  process.exit(2);
}

/**
 * The embedded store failing under the service (its files damaged, the disk full) surfaces deep in
 * dynalite as an error nothing can catch: said in one line that names the folder and what to do, and
 * the start or the run ends with exit code 1. Any other error keeps Node's own report.
 */
process.on('uncaughtException', (error: Error & { code?: string }) => {
  const ofStore = String(error?.code).startsWith('LEVEL_') || error?.message === 'Database is closed';
  if (!ofStore) {
    console.error(error);
    process.exit(1);
  }
  const where = dataDir ? `in ${dataDir}` : 'in memory';
  console.error(
    /No space left on device|ENOSPC/.test(error.message)
      ? `The embedded store ${where} cannot write: the disk is full. Every write it answered is kept: free some space, then start again.`
      : `The embedded store ${where} failed (${error.message}): its files may be damaged. Start on a copy of the folder restored from a backup, or move the folder aside to start afresh.`,
  );
  process.exit(1);
});
let runtime: Awaited<ReturnType<typeof startRuntime>>;
try {
  const storeWaitMs = Math.max(1_000, timeLimit(STORE_DEADLINE_MS) - Math.round(performance.now()));
  runtime = await startRuntime({ port, host, dataDir, isolated: values.isolated, site, storeWaitMs });
} catch (error) {
  console.error(`Could not start: ${(error as Error).message}`);
  process.exit(1);
}
const data: DataPlace = external
  ? { kind: 'external', where: runtime.where }
  : dataDir
    ? { kind: 'folder', dir: dataDir }
    : { kind: 'memory' };
// Bound beyond loopback, the banner says who can reach it: for a wildcard, at which addresses.
// Its own routes answer only the names 127.0.0.1, localhost and [::1] (own-routes.ts): bound to any
// other address (127.0.0.2 too), the banner says so.
const exposure: Exposure | undefined = ['127.0.0.1', '::1', 'localhost'].includes(host)
  ? undefined
  : {
      host,
      addresses: Object.values(networkInterfaces())
        .flat()
        .filter((address) => address && !address.internal && (host === '::' || address.family === 'IPv4'))
        .map((address) => address!.address),
    };
console.log(
  banner({
    url: runtime.url,
    data,
    webBuildMs: buildMs,
    isolated: Boolean(values.isolated),
    signIn: runtime.issuer ? { kind: 'dev' } : { kind: 'issuer', issuer: process.env.OIDC_ISSUER ?? '' },
    ...(exposure ? { exposure } : {}),
  }).join('\n'),
);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: shutting down`);
  await runtime.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
// The terminal it ran in closed: stopped as by Ctrl-C, its data folder left for the next start.
process.on('SIGHUP', () => void stop('SIGHUP'));
