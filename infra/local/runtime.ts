import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { clockOffset } from '../../functions/clock.js';
import { OIDC_AUDIENCE_ENV, OIDC_ISSUER_ENV, OIDC_JWKS_URL_ENV } from '../../functions/http/identity.js';
import { handler as projector } from '../../functions/projector/handler.js';
import { rebuildReadModels } from '../../functions/projector/rebuild.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { siteHeaders } from '../site-headers.js';
import { isolatedRoutes } from './isolated.js';
import { DEV_AUDIENCE, type DevIssuer, startDevIssuer } from './issuer.js';
import { type StoreMeter, storeMeter } from './meter.js';
import { type StoreProxy, startStoreProxy } from './proxy.js';
import { listen, serve } from './server.js';
import type { Site } from './site.js';
import { type LocalSiteConfig, localSiteConfig, serveSiteConfig } from './site-config.js';
import { ensureTables, LOCAL_READ_TABLE, LOCAL_TABLE, startLocalStore } from './store.js';
import { type ChangeStream, type StreamConsumer, startChangeStream } from './stream.js';

export interface RuntimeOptions {
  readonly port?: number;
  readonly host?: string;
  /** Keep the embedded store in this folder (else in memory). */
  readonly dataDir?: string | undefined;
  /** Every route in a process of its own, as Lambda runs them; `containers` of them a route (default 1). */
  readonly isolated?: boolean | undefined;
  readonly containers?: number | undefined;
  readonly site?: Site | undefined;
  /** What consumes the change stream (default: the projector; benchmarks wrap it). */
  readonly projector?: StreamConsumer | undefined;
  /** Count the store's requests and the units it reports (benchmarks). */
  readonly meter?: boolean | undefined;
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

/**
 * `POST /dev/rebuild-projections` (local only, like the development issuer): deletes every read model
 * and builds them again from the log, on this runtime's store (`npm run rebuild-projections`).
 */
async function rebuildRoute(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (request.method !== 'POST' || path !== '/dev/rebuild-projections') return false;
  const rebuilt = JSON.stringify(await rebuildReadModels());
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(rebuilt);
  return true;
}

/**
 * The whole service on a laptop (`npm start`, and the integration tests): a store (embedded dynalite,
 * or the DynamoDB-compatible one at DYNAMODB_ENDPOINT) with its tables, its change stream feeding the
 * projector, a sign-in issuer (the development one, or the one OIDC_ISSUER names), and every route of
 * the route table served with the same handlers Lambda runs.
 */
export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const offset = clockOffset();
  if (typeof offset !== 'number') throw new Error(offset.problem);
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
  ];
  const given = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  const restore = () => {
    for (const name of names) {
      if (given[name] === undefined) delete process.env[name];
      else process.env[name] = given[name];
    }
  };
  const external = process.env[ENDPOINT_ENV];
  const store = external
    ? undefined
    : await startLocalStore(options.dataDir ? { dataDir: options.dataDir } : {});
  const upstream = external ?? store!.endpoint;
  const tableName = store?.tableName ?? process.env[TABLE_ENV] ?? LOCAL_TABLE;
  const readTableName = process.env[READ_TABLE_ENV] ?? LOCAL_READ_TABLE;
  let stream: ChangeStream | undefined;
  let proxy: StoreProxy;
  const meter = options.meter ? storeMeter() : undefined;
  let rebuild = store?.rebuild ?? false;
  try {
    if (external) ({ rebuild } = await ensureTables(external, tableName, readTableName));
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
    throw error;
  }
  process.env[ENDPOINT_ENV] = proxy.endpoint;
  process.env[TABLE_ENV] = tableName;
  process.env[READ_TABLE_ENV] = readTableName;
  // A read-model table made anew holds nothing yet: its figures come from the log before any request.
  if (rebuild) await rebuildReadModels();

  const { server, url } = await listen(options.port, options.host);
  // Before any route loads (a route process takes its environment when it starts).
  const issuer = process.env[OIDC_ISSUER_ENV] ? undefined : await startDevIssuer(url);
  if (issuer) {
    process.env[OIDC_ISSUER_ENV] = issuer.issuer;
    process.env[OIDC_AUDIENCE_ENV] = DEV_AUDIENCE;
    process.env[OIDC_JWKS_URL_ENV] = issuer.jwksUrl;
  }
  let siteConfig: LocalSiteConfig;
  try {
    siteConfig = localSiteConfig(process.env, Boolean(issuer));
  } catch (error) {
    server.close();
    stream.close();
    await proxy.close();
    await store?.close();
    restore();
    throw error;
  }
  const routes = options.isolated
    ? await isolatedRoutes(options.containers ? { containers: options.containers } : {})
    : undefined;
  await serve(server, {
    site: options.site,
    siteHeaders: siteHeaders(siteConfig.connectSources),
    handlers: routes?.handlers,
    local: async (request, body, response) =>
      serveSiteConfig(siteConfig, request, response) ||
      (await rebuildRoute(request, response)) ||
      ((await issuer?.serve(request, body, response)) ?? false),
  });
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
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await routes?.close();
      await stream.settled();
      stream.close();
      await proxy.close();
      await store?.close();
      restore();
    },
  };
}
