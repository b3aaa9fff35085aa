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

/**
 * The path of a request's target as sent (./server.ts routes on it; so do the runtime's own routes):
 * no dot segment resolved, plain or encoded (`/x/%2e%2e/openapi.json` is no route, as in API
 * Gateway, where a URL parser's reading would make it /openapi.json).
 */
export function requestPath(request: IncomingMessage): string {
  const target = request.url ?? '/';
  return target.startsWith('/') ? target.replace(/[?#][\s\S]*$/, '') : requestUrl(request).pathname;
}
