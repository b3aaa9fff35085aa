import type { Server } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { clockOffset } from '../../functions/clock.js';
import {
  issuerSettingsFault,
  OIDC_AUDIENCE_ENV,
  OIDC_ISSUER_ENV,
  OIDC_JWKS_ENV,
  OIDC_JWKS_URL_ENV,
} from '../../functions/http/identity.js';
import { handler as projector } from '../../functions/projector/handler.js';
import { rebuildReadModels } from '../../functions/projector/rebuild.js';
import { ENDPOINT_ENV, FUNCTION_TIMEOUT_SECONDS, TABLE_ENV } from '../../functions/routes.js';
import { CREATION_SECRET_ENV } from '../../functions/store/creations.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { timeLimit, timeScale } from '../../functions/timeScale.js';
import { siteHeaders } from '../site-headers.js';
import { creationSecret, givenSecret } from './creation-secret.js';
import { isolatedRoutes } from './isolated.js';
import { DEV_AUDIENCE, DEV_ISSUER_KEY_FILE, type DevIssuer, startDevIssuer } from './issuer.js';
import { type StoreMeter, storeMeter } from './meter.js';
import { localAddress, ownRoutes } from './own-routes.js';
import { type StoreProxy, startStoreProxy } from './proxy.js';
import { closeServer, listen, serve } from './server.js';
import type { Site } from './site.js';
import { type LocalSiteConfig, localSiteConfig } from './site-config.js';
import {
  asking,
  ensureTables,
  followOutsideStore,
  LOCAL_READ_TABLE,
  LOCAL_TABLE,
  StoreCallFailed,
  startLocalStore,
} from './store.js';
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
  /**
   * How long an outside store (DYNAMODB_ENDPOINT) may take, in all, to answer and have its tables
   * ready at start (default STORE_WAIT_MS, scaled).
   */
  readonly storeWaitMs?: number | undefined;
  /** How long a request's headers, and then its body, may each take to arrive (default 30 s); then 408. */
  readonly requestTimeoutMs?: number | undefined;
}

/** How long a start gives an outside store, in all, to answer and have its tables ready (unless told). */
export const STORE_WAIT_MS = 7_000;

/** The outside store cannot be used as it answers, or does not answer: `npm start` ends, naming it. */
export class StoreUnusable extends Error {}

/**
 * Refuses a DYNAMODB_ENDPOINT that is not an http or https URL, before anything starts. One without
 * its scheme (`localhost:8000`) is refused rather than taken as http://: the rebuild
 * (`npm run rebuild-projections -- --tables`) reads the same variable as it is given.
 */
function checkEndpoint(endpoint: string): void {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.host)
    throw new StoreUnusable(
      `${ENDPOINT_ENV} is ${JSON.stringify(endpoint)}, not an http or https URL: give it with its scheme, such as http://${endpoint.includes('://') ? 'localhost:8000' : endpoint}.`,
    );
}

/** What the SDK's error says of an answer: its HTTP status, its content type, the error it names. */
interface SdkError extends Error {
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly $fault?: string;
  readonly $response?: { readonly headers?: Readonly<Record<string, string>> };
  readonly code?: string;
}

/** The failed call, in one line naming the store, with what to do. */
function unusable(
  endpoint: string,
  waitMs: number,
  failure: StoreCallFailed,
  first: boolean,
  timedOut: boolean,
): StoreUnusable {
  const store = `the store at ${endpoint} (${ENDPOINT_ENV})`;
  const instead = `or unset ${ENDPOINT_ENV} to use the embedded one`;
  const error = failure.cause as SdkError;
  const status = error.$metadata?.httpStatusCode;
  const within = `${Math.round(waitMs / 100) / 10} s`;
  // One line, without a closing period of its own.
  const said = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  if (timedOut)
    return new StoreUnusable(
      first
        ? `${store} did not answer within ${within}: start it, ${instead}.`
        : `${store} took more than ${within} ${failure.doing}: check it, ${instead}.`,
    );
  if (status === undefined)
    return new StoreUnusable(
      `${store} cannot be reached (${said(error.message) || error.code})${first ? '' : ` when ${failure.doing}`}: start it, ${instead}.`,
    );
  // A DynamoDB-compatible store names its error (a fault of the client's or the server's); anything
  // else (a page, another service's error) is no such store.
  if (error.$fault && error.name !== 'Unknown' && error.name !== 'UnknownError')
    return new StoreUnusable(
      `${store} refused ${failure.doing}: ${error.name}: ${said(error.message)}. Check it, ${instead}.`,
    );
  const type = error.$response?.headers?.['content-type'];
  return new StoreUnusable(
    `${store} is not a DynamoDB-compatible store: it answered HTTP ${status}${type ? ` (${type})` : ''} when ${failure.doing}. Point ${ENDPOINT_ENV} at one, or unset it to use the embedded one.`,
  );
}

/**
 * Prepares the outside store at `endpoint` within `waitMs` in all: asks it for a table name (an
 * answer without a list of tables is no DynamoDB-compatible store's), then has its tables made
 * (ensureTables). Every failure there, and silence past `waitMs`, is a StoreUnusable in one line
 * naming the store; a table of the wrong shape is ensureTables's own WrongTable.
 */
async function prepareStore(
  endpoint: string,
  tableName: string,
  readTableName: string,
  waitMs: number,
): Promise<{ readonly rebuild: boolean }> {
  const signal = AbortSignal.timeout(waitMs);
  const client = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  let first = true;
  try {
    await asking('listing its tables', async () => {
      const { TableNames, $metadata } = await client.send(new ListTablesCommand({ Limit: 1 }), {
        abortSignal: signal,
      });
      // Read by `unusable` as an answer that is not DynamoDB's.
      if (!Array.isArray(TableNames)) throw Object.assign(new Error('no list of tables'), { $metadata });
    });
    first = false;
    return await ensureTables(endpoint, tableName, readTableName, signal);
  } catch (error) {
    if (error instanceof StoreCallFailed) throw unusable(endpoint, waitMs, error, first, signal.aborted);
    throw error;
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
  /**
   * Stops taking requests, answers those in hand (each within the functions' timeout), then stops
   * the rest: `npm start`'s SIGTERM and SIGINT.
   */
  stop(): Promise<void>;
}

/**
 * The whole service on a laptop (`npm start`, and the integration tests): a store (embedded dynalite,
 * or the DynamoDB-compatible one at DYNAMODB_ENDPOINT) with its tables, its change stream feeding the
 * projector, a sign-in issuer (the development one, or the one OIDC_ISSUER names), and every route of
 * the route table served with the same handlers Lambda runs.
 */
export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  for (const setting of [clockOffset(), timeScale()])
    if (typeof setting !== 'number') throw new Error(setting.problem);
  // Set but empty is unset, as for the other settings: the embedded store.
  const external = process.env[ENDPOINT_ENV] || undefined;
  if (external) checkEndpoint(external);
  // Another issuer is trusted with both of these; with one alone no sign-in token could ever verify.
  if (Boolean(process.env[OIDC_ISSUER_ENV]) !== Boolean(process.env[OIDC_AUDIENCE_ENV])) {
    throw new Error(
      `${OIDC_ISSUER_ENV} and ${OIDC_AUDIENCE_ENV} go together: set both to trust that issuer (optionally ${OIDC_JWKS_URL_ENV}), or neither for the development issuer.`,
    );
  }
  const fault = issuerSettingsFault(process.env);
  if (fault) throw new Error(fault);
  givenSecret();
  // What the caller's environment said, given back at stop (another runtime in this process starts afresh).
  const names = [
    ENDPOINT_ENV,
    TABLE_ENV,
    READ_TABLE_ENV,
    OIDC_ISSUER_ENV,
    OIDC_AUDIENCE_ENV,
    OIDC_JWKS_URL_ENV,
    OIDC_JWKS_ENV,
    CREATION_SECRET_ENV,
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
  const store = external
    ? undefined
    : await startLocalStore(options.dataDir ? { dataDir: options.dataDir } : {}).catch(async (error) => {
        await stopWorkers();
        throw error;
      });
  const upstream = external ?? store!.endpoint;
  // The embedded store has its own two tables; the names in the environment are an outside store's.
  const tableName = store?.tableName ?? process.env[TABLE_ENV] ?? LOCAL_TABLE;
  const readTableName = store?.readTableName ?? (process.env[READ_TABLE_ENV] || LOCAL_READ_TABLE);
  // Beside an outside store a data folder keeps the runtime's own files (the feed's journal among them).
  let release = () => {};
  let stream: ChangeStream | undefined;
  let proxy: StoreProxy;
  const meter = options.meter ? storeMeter() : undefined;
  let rebuild = store?.rebuild ?? false;
  try {
    // Refused before the store is touched: a folder that follows another store, or holds the embedded one.
    if (external && options.dataDir) release = followOutsideStore(options.dataDir, external, tableName);
    if (external) {
      ({ rebuild } = await prepareStore(
        external,
        tableName,
        readTableName,
        options.storeWaitMs ?? timeLimit(STORE_WAIT_MS),
      ));
    }
    // The feed's journal is kept in the data folder, beside the embedded store or for an outside one;
    // without a folder there is none (in memory, the embedded store is gone with the process too).
    stream = startChangeStream({
      upstream,
      tableName,
      consumer: options.projector ?? projector,
      journal: options.dataDir ? join(options.dataDir, 'change-feed.journal') : undefined,
    });
    proxy = await startStoreProxy(upstream, meter ? [stream.tap, meter.tap] : [stream.tap]);
  } catch (error) {
    stream?.close();
    release();
    await store?.close();
    await stopWorkers();
    throw error;
  }
  process.env[ENDPOINT_ENV] = proxy.endpoint;
  process.env[TABLE_ENV] = tableName;
  process.env[READ_TABLE_ENV] = readTableName;
  process.env[CREATION_SECRET_ENV] = creationSecret(options.dataDir);
  // A read-model table made anew holds nothing yet: its figures come from the log before any request.
  if (rebuild) await rebuildReadModels();

  // What has been started, stopped in reverse if the start fails further on.
  const started: (() => unknown)[] = [
    restore,
    () => store?.close(),
    release,
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
    const listening = await listen(options.port, options.host, options.requestTimeoutMs);
    server = listening.server;
    started.push(() => closeServer(listening.server));
    url = `http://${localAddress(options.host ?? '127.0.0.1')}:${listening.port}`;
    // Before any route loads (a worker or a route process takes its environment when it starts).
    issuer = process.env[OIDC_ISSUER_ENV]
      ? undefined
      : await startDevIssuer(url, options.dataDir ? join(options.dataDir, DEV_ISSUER_KEY_FILE) : undefined);
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
      local: ownRoutes({
        port: listening.port,
        siteConfig,
        issuer,
        prepareTables: () => ensureTables(upstream, tableName, readTableName),
      }),
      bodyTimeoutMs: options.requestTimeoutMs,
    });
    // Served: the other routes answer while the workers finish starting (solver requests wait for them).
    await workers?.ready;
  } catch (error) {
    await unwind();
    throw error;
  }
  const where = external
    ? `table ${tableName} at ${external}${options.dataDir ? `, its change feed's journal in ${options.dataDir}` : ''}`
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
      // What is in hand is answered first: each invocation ends within the functions' timeout.
      await closeServer(server, timeLimit(FUNCTION_TIMEOUT_SECONDS * 1000) + 1_000);
      await routes.close();
      await stream.settled();
      stream.close();
      await proxy.close();
      release();
      await store?.close();
      restore();
    },
  };
}
