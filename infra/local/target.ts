import type { IncomingMessage } from 'node:http';

/**
 * A request's target as a URL. An origin-form target (`/games/1?at=2`) is a path as it stands: read
 * against a base, `//host/games/1` would name a host and lose its first segment, so that a path of no
 * route reached one (API Gateway routes the path as sent: 404). Anything else (an absolute-form
 * target, `*`) is read against this runtime's own address.
 */
export function requestUrl(request: IncomingMessage): URL {
  const target = request.url ?? '/';
  return target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target, 'http://localhost');
}

/** The path of a request's target (./server.ts routes on it; so do the runtime's own routes). */
export const requestPath = (request: IncomingMessage): string => requestUrl(request).pathname;
