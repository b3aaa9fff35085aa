import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { Problem, storeUnavailable } from '../../functions/http/problem.js';
import { json, problemResponse } from '../../functions/http/respond.js';
import { rebuildReadModels } from '../../functions/projector/rebuild.js';
import type { DevIssuer } from './issuer.js';
import { type LocalRoutes, send } from './server.js';
import { type LocalSiteConfig, serveSiteConfig } from './site-config.js';
import { addressedHere, requestPath } from './target.js';

/** The runtime's own routes, never deployed: the development issuer's, and the rebuild trigger. */
const REBUILD = '/dev/rebuild-projections';
const isOwn = (path: string) => path.startsWith('/dev/') || path === '/.well-known/jwks.json';

/**
 * `POST /dev/rebuild-projections`: builds every read model again from the log, in place, on this
 * runtime's store (`npm run rebuild-projections`).
 */
async function rebuild(
  request: IncomingMessage,
  response: ServerResponse,
  prepare: () => Promise<unknown>,
): Promise<boolean> {
  const path = requestPath(request);
  if (request.method !== 'POST' || path !== REBUILD) return false;
  let rebuilt: unknown;
  try {
    // A read-model table deleted while the runtime ran is made again first, then filled.
    await prepare();
    rebuilt = await rebuildReadModels();
  } catch (error) {
    send(
      response,
      problemResponse(storeUnavailable(`The read models could not be rebuilt: ${(error as Error).message}`)),
    );
    return true;
  }
  send(response, json(200, rebuilt));
  return true;
}

/**
 * What the local runtime answers itself, before the route table: the web page's `/config.json`,
 * the rebuild trigger and, with its development issuer (no OIDC_ISSUER given), the issuer's routes,
 * to requests addressed to it only (else 404, as in the deployed stack, which has none).
 */
export function ownRoutes(options: {
  readonly port: number;
  readonly siteConfig: LocalSiteConfig;
  readonly issuer?: DevIssuer | undefined;
  /** Makes the store's tables that are missing (before a rebuild). */
  readonly prepareTables: () => Promise<unknown>;
}): LocalRoutes {
  const { port, siteConfig, issuer, prepareTables } = options;
  return async (request, body, response) => {
    if (serveSiteConfig(siteConfig, request, response)) return true;
    const path = requestPath(request);
    // With another issuer trusted, the issuer's routes do not exist (the route table's 404 answers);
    // the rebuild does, on any runtime.
    if (!isOwn(path) || (!issuer && path !== REBUILD)) return false;
    if (!addressedHere(request, port)) {
      const names = `127.0.0.1:${port}, localhost:${port} or [::1]:${port}`;
      send(
        response,
        problemResponse(
          new Problem(
            'not-found',
            `${path} answers only requests from this machine sent to ${names}, from no other site's page.`,
          ),
        ),
      );
      return true;
    }
    return (
      (await rebuild(request, response, prepareTables)) ||
      (issuer !== undefined && (await issuer.serve(request, body, response)))
    );
  };
}

/** The address to reach a runtime bound to `host` at on this machine: loopback for a wildcard. */
export function localAddress(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return isIP(host) === 6 ? `[${host}]` : host;
}
