/**
 * The web page's `/config.json` under `npm start`: how the page signs in. With the development
 * issuer it posts a name to `/dev/tokens` on its own origin; with OIDC_ISSUER naming another
 * issuer and COGNITO_DOMAIN naming that pool's domain (its hosted UI), it signs in there with the
 * authorization code grant and PKCE, the client being OIDC_AUDIENCE; with another issuer and no
 * domain the page offers no sign-in (a token can still be sent by any other client).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cognitoSignIn, SITE_CONFIG_PATH, type SiteConfig } from '../../client/site-config.js';
import { OIDC_AUDIENCE_ENV } from '../../functions/http/identity.js';
import { siteHeaders } from '../site-headers.js';
import { requestPath } from './target.js';

/** A Cognito user pool domain, `https://<prefix>.auth.<region>.amazoncognito.com` (or a custom one). */
export const COGNITO_DOMAIN_ENV = 'COGNITO_DOMAIN';

export interface LocalSiteConfig {
  readonly config: SiteConfig;
  /** The origins the page must be allowed to fetch from (its CSP's connect-src). */
  readonly connectSources: readonly string[];
}

export function localSiteConfig(
  env: Readonly<Record<string, string | undefined>>,
  devIssuer: boolean,
): LocalSiteConfig {
  if (devIssuer) return { config: { signIn: { kind: 'dev', tokenUrl: '/dev/tokens' } }, connectSources: [] };
  const domain = env[COGNITO_DOMAIN_ENV];
  const clientId = env[OIDC_AUDIENCE_ENV];
  if (!domain || !clientId) return { config: { signIn: { kind: 'none' } }, connectSources: [] };
  let url: URL;
  try {
    url = new URL(domain);
  } catch {
    throw new Error(
      `${COGNITO_DOMAIN_ENV}=${domain} is not a URL (https://<prefix>.auth.<region>.amazoncognito.com)`,
    );
  }
  // Plain HTTP only on loopback (a stand-in for Cognito in tests): tokens never cross a network in clear.
  if (url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`${COGNITO_DOMAIN_ENV}=${domain} must be an https URL`);
  }
  return {
    config: { signIn: cognitoSignIn(url.origin, clientId) },
    connectSources: [url.origin],
  };
}

/** Answers `GET /config.json`; false for any other request. */
export function serveSiteConfig(
  site: LocalSiteConfig,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const path = requestPath(request);
  if ((request.method !== 'GET' && request.method !== 'HEAD') || path !== SITE_CONFIG_PATH) return false;
  const body = JSON.stringify(site.config);
  response.writeHead(200, {
    ...siteHeaders(site.connectSources),
    'content-type': 'application/json; charset=utf-8',
    // Where the page signs in may change with the next start: never cached, like index.html.
    'cache-control': 'no-cache',
    'content-length': Buffer.byteLength(body),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
  return true;
}
