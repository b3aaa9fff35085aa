/**
 * Which URL paths belong to the HTTP API, from the one route table: CloudFront sends these to the
 * API and everything else to the site's bucket, the local runtime serves the site only where no
 * route matches, and Vite's dev server proxies these to `npm start`. A route added to the table
 * is routed everywhere without touching this file.
 */
import { ROUTES, type Route } from '../functions/routes.js';

const firstSegment = (path: string): string => path.split('/')[1] ?? '';

/**
 * CloudFront path patterns: `/games` and `/games/*` for the game routes, `/replays`, `/openapi.json`.
 * One or two patterns per first path segment, so the distribution stays far below its behavior limit.
 */
export function apiPathPatterns(routes: readonly Route[] = ROUTES): string[] {
  const patterns = new Set<string>();
  for (const { path } of routes) {
    if (path === '$default') continue;
    const first = `/${firstSegment(path)}`;
    patterns.add(path === first ? first : `${first}/*`);
  }
  return [...patterns].sort();
}

/** The first path segments of the API (`/games`, `/replays`, `/openapi.json`): prefixes for a proxy. */
export function apiPathPrefixes(routes: readonly Route[] = ROUTES): string[] {
  return [
    ...new Set(routes.filter((r) => r.path !== '$default').map((r) => `/${firstSegment(r.path)}`)),
  ].sort();
}
