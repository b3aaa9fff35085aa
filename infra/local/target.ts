import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Whether an address is this machine's loopback (IPv4, IPv6, or IPv4 mapped into IPv6). */
const isLoopback = (address: string): boolean =>
  address === '::1' || address === 'localhost' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(address);

/** Every value of a header as sent, repeats included (Node keeps only the first `Host`). */
const valuesOf = (request: IncomingMessage, name: string): string[] =>
  request.rawHeaders.flatMap((value, i) =>
    i % 2 === 1 && request.rawHeaders[i - 1]!.toLowerCase() === name ? [value.trim().toLowerCase()] : [],
  );

/**
 * Whether a request is addressed to this runtime by a name that only this machine gives it (one
 * `Host`, 127.0.0.1:PORT, localhost:PORT or [::1]:PORT: a DNS-rebound name is none of them, and a
 * target in absolute form names the same), comes from this machine, and carries no `Origin` but
 * this runtime's own (a page elsewhere that posts here sends its own). docs/api.md. The embedded
 * store and its proxy answer only such requests too (./store.ts, ./proxy.ts).
 */
export function addressedHere(request: IncomingMessage, port: number): boolean {
  const hosts = valuesOf(request, 'host');
  const names = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (hosts.length !== 1 || !names.includes(hosts[0]!)) return false;
  const host = hosts[0]!;
  const target = request.url ?? '/';
  if (!target.startsWith('/') && !target.toLowerCase().startsWith(`http://${host}/`)) return false;
  if (!isLoopback(request.socket.remoteAddress ?? '')) return false;
  return valuesOf(request, 'origin').every((origin) => origin === `http://${host}`);
}

/**
 * Lets `server` (on a loopback port) answer only requests addressed to it from this machine
 * (`addressedHere`). A page in a browser can reach loopback ports, and the embedded store would
 * answer it (dynalite allows any origin): such a request is refused 403 before the server's own
 * handlers see it.
 */
export function answerThisMachineOnly(server: Server): void {
  const handlers = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (addressedHere(request, (server.address() as AddressInfo).port)) {
      for (const handler of handlers) handler.call(server, request, response);
      return;
    }
    response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    response.end("This store answers this machine's local runtime only.\n");
  });
}
