import type { Server } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { clockOffset } from '../../functions/clock.js';
import {
  OIDC_AUDIENCE_ENV,
  OIDC_ISSUER_ENV,
  OIDC_JWKS_ENV,
  OIDC_JWKS_URL_ENV,
} from '../../functions/http/identity.js';
import { handler as projector } from '../../functions/projector/handler.js';
import { rebuildReadModels } from '../../functions/projector/rebuild.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { timeLimit, timeScale } from '../../functions/timeScale.js';
import { siteHeaders } from '../site-headers.js';
import { isolatedRoutes } from './isolated.js';
import { DEV_AUDIENCE, type DevIssuer, startDevIssuer } from './issuer.js';
import { type StoreMeter, storeMeter } from './meter.js';
import { localAddress, ownRoutes } from './own-routes.js';
import { type StoreProxy, startStoreProxy } from './proxy.js';
import { listen, serve } from './server.js';
import type { Site } from './site.js';
import { type LocalSiteConfig, localSiteConfig } from './site-config.js';
import { ensureTables, LOCAL_READ_TABLE, LOCAL_TABLE, startLocalStore } from './store.js';
import { type ChangeStream, type StreamConsumer, startChangeStream } from './stream.js';
import { solverWorkers } from './workers.js';

export interface RuntimeOptions {
  readonly port?: number;
  readonly host?: string;
  /** Keep the embedded store in this folder (else in memory). */
  readonly dataDir?: string | undefined;
  /** Every route in a process of its own, as Lambda runs them; `containers` of them a route (default 1). */
  readonly isolated?: boolean | undefined;
  readonly containers?: number | undefined;
  /** Worker threads for the solver routes when not isolated (default: a core but one, 1 to 8). */
  readonly workers?: number | undefined;
  /** The web client's files, or their build under way (served once it is done). */
  readonly site?: Site | Promise<Site> | undefined;
  /** What consumes the change stream (default: the projector; benchmarks wrap it). */
  readonly projector?: StreamConsumer | undefined;
  /** Count the store's requests and the units it reports (benchmarks). */
  readonly meter?: boolean | undefined;
  /** How long an outside store (DYNAMODB_ENDPOINT) may take to answer at start (default STORE_WAIT_MS, scaled). */
  readonly storeWaitMs?: number | undefined;
  /** How long a request body may take to arrive (default: API Gateway's 30 s). */
  readonly bodyTimeoutMs?: number | undefined;
}

/** How long `npm start` waits for an outside store's first answer: it gives up well within 10 s. */
export const STORE_WAIT_MS = 5_000;

/** The outside store does not answer: `npm start` ends, naming it. */
export class StoreUnreachable extends Error {}

/**
 * Asks the store at `endpoint` for one table name, within `waitMs`: any answer from it, even a
 * refusal, says it is there; no connection, or silence, is a StoreUnreachable naming it.
 */
async function reachStore(endpoint: string, waitMs: number): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(waitMs) });
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode) return;
    const why =
      (error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError'
        ? `did not answer within ${waitMs / 1000} s`
        : `cannot be reached (${(error as Error).message || (error as { code?: string }).code})`;
    throw new StoreUnreachable(
      `the store at ${endpoint} (${ENDPOINT_ENV}) ${why}: start it, or unset ${ENDPOINT_ENV} to use the embedded one.`,
    );
  } finally {
    client.destroy();
  }
}

export interface Runtime {
  readonly url: string;
  readonly server: Server;
  readonly tableName: string;
  readonly readTableName: string;
  /** Where the data lives, in words. */
  readonly where: string;
  /** The development sign-in issuer, unless OIDC_ISSUER names another one to trust. */
  readonly issuer?: DevIssuer;
  /** What the web page's `/config.json` says about signing in. */
  readonly siteConfig: LocalSiteConfig;
  /** Resolves once every write so far has reached the read models. */
  settled(): Promise<void>;
  /** The change feed's backlog: writes not yet delivered to the read models, games queued. */
  readonly backlog: ChangeStream['backlog'];
  /** What the store was asked and what it reports it cost, when started with `meter`. */
  readonly meter?: StoreMeter;
  stop(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * The whole service on a laptop (`npm start`, and the integration tests): a store (embedded dynalite,
 * or the DynamoDB-compatible one at DYNAMODB_ENDPOINT) with its tables, its change stream feeding the
 * projector, a sign-in issuer (the development one, or the one OIDC_ISSUER names), and every route of
 * the route table served with the same handlers Lambda runs.
 */
export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  for (const setting of [clockOffset(), timeScale()])
    if (typeof setting !== 'number') throw new Error(setting.problem);
  // Another issuer is trusted with both of these; with one alone no sign-in token could ever verify.
  if (Boolean(process.env[OIDC_ISSUER_ENV]) !== Boolean(process.env[OIDC_AUDIENCE_ENV])) {
    throw new Error(
      `${OIDC_ISSUER_ENV} and ${OIDC_AUDIENCE_ENV} go together: set both to trust that issuer (optionally ${OIDC_JWKS_URL_ENV}), or neither for the development issuer.`,
    );
  }
  // What the caller's environment said, given back at stop (another runtime in this process starts afresh).
  const names = [
    ENDPOINT_ENV,
    TABLE_ENV,
    READ_TABLE_ENV,
    OIDC_ISSUER_ENV,
    OIDC_AUDIENCE_ENV,
    OIDC_JWKS_URL_ENV,
    OIDC_JWKS_ENV,
  ];
  const given = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  const restore = () => {
    for (const name of names) {
      if (given[name] === undefined) delete process.env[name];
      else process.env[name] = given[name];
    }
  };
  // The worker threads take longest to start (each loads every solver handler), so they start
  // first; they share this process's environment, which is complete before a request reaches them.
  const workers = options.isolated
    ? undefined
    : solverWorkers(options.workers ? { size: options.workers } : {});
  // A failure to start them is reported where they are awaited.
  workers?.ready.catch(() => {});
  const stopWorkers = async () => workers?.close();
  const external = process.env[ENDPOINT_ENV];
  const store = external
    ? undefined
    : await startLocalStore(options.dataDir ? { dataDir: options.dataDir } : {}).catch(async (error) => {
        await stopWorkers();
        throw error;
      });
  const upstream = external ?? store!.endpoint;
  const tableName = store?.tableName ?? process.env[TABLE_ENV] ?? LOCAL_TABLE;
  const readTableName = process.env[READ_TABLE_ENV] ?? LOCAL_READ_TABLE;
  let stream: ChangeStream | undefined;
  let proxy: StoreProxy;
  const meter = options.meter ? storeMeter() : undefined;
  let rebuild = store?.rebuild ?? false;
  try {
    if (external) {
      await reachStore(external, options.storeWaitMs ?? timeLimit(STORE_WAIT_MS));
      ({ rebuild } = await ensureTables(external, tableName, readTableName));
    }
    // The feed's journal lives with the data it follows (in memory, the store is gone with the process too).
    stream = startChangeStream({
      upstream,
      tableName,
      consumer: options.projector ?? projector,
      journal: options.dataDir && store ? join(options.dataDir, 'change-feed.journal') : undefined,
    });
    proxy = await startStoreProxy(upstream, meter ? [stream.tap, meter.tap] : [stream.tap]);
  } catch (error) {
    stream?.close();
    await store?.close();
    await stopWorkers();
    throw error;
  }
  process.env[ENDPOINT_ENV] = proxy.endpoint;
  process.env[TABLE_ENV] = tableName;
  process.env[READ_TABLE_ENV] = readTableName;
  // A read-model table made anew holds nothing yet: its figures come from the log before any request.
  if (rebuild) await rebuildReadModels();

  // What has been started, stopped in reverse if the start fails further on.
  const started: (() => unknown)[] = [
    restore,
    () => store?.close(),
    () => stream.close(),
    () => proxy.close(),
    stopWorkers,
  ];
  const unwind = async () => {
    for (const stop of started.reverse()) await stop();
  };
  let server: Server;
  let url: string;
  let issuer: DevIssuer | undefined;
  let siteConfig: LocalSiteConfig;
  let routes: { close(): Promise<void> };
  try {
    // From here every request is answered: 503 `starting` until the routes are attached.
    const listening = await listen(options.port, options.host);
    server = listening.server;
    started.push(() => closeServer(listening.server));
    url = `http://${localAddress(options.host ?? '127.0.0.1')}:${listening.port}`;
    // Before any route loads (a worker or a route process takes its environment when it starts).
    issuer = process.env[OIDC_ISSUER_ENV] ? undefined : await startDevIssuer(url);
    if (issuer) {
      process.env[OIDC_ISSUER_ENV] = issuer.issuer;
      process.env[OIDC_AUDIENCE_ENV] = DEV_AUDIENCE;
      // Its keys, in hand: its JWKS route answers only requests addressed to loopback names.
      process.env[OIDC_JWKS_ENV] = JSON.stringify(issuer.jwks);
      delete process.env[OIDC_JWKS_URL_ENV];
    }
    siteConfig = localSiteConfig(process.env, Boolean(issuer));
    const containers =
      workers ?? (await isolatedRoutes(options.containers ? { containers: options.containers } : {}));
    routes = containers;
    started.push(() => containers.close());
    await serve(server, {
      site: await options.site,
      siteHeaders: siteHeaders(siteConfig.connectSources),
      handlers: containers.handlers,
      local: ownRoutes({ port: listening.port, siteConfig, issuer }),
      bodyTimeoutMs: options.bodyTimeoutMs,
    });
    // Served: the other routes answer while the workers finish starting (solver requests wait for them).
    await workers?.ready;
  } catch (error) {
    await unwind();
    throw error;
  }
  const where = external
    ? `table ${tableName} at ${external}`
    : options.dataDir
      ? `dynalite in ${options.dataDir}`
      : 'dynalite in memory';
  return {
    url,
    server,
    tableName,
    readTableName,
    where,
    ...(issuer ? { issuer } : {}),
    siteConfig,
    settled: () => stream.settled(),
    backlog: () => stream.backlog(),
    ...(meter ? { meter } : {}),
    stop: async () => {
      await closeServer(server);
      await routes.close();
      await stream.settled();
      stream.close();
      await proxy.close();
      await store?.close();
      restore();
    },
  };
}
