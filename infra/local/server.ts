import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  type RequestListener,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { now } from '../../functions/clock.js';
import type { LambdaHandler } from '../../functions/http/handler.js';
import { Problem } from '../../functions/http/problem.js';
import { payloadTooLarge } from '../../functions/http/request.js';
import { problemResponse, type Response } from '../../functions/http/respond.js';
import {
  bodyLimit,
  GATEWAY_TIMEOUT_MS,
  handlerEntry,
  ROUTES,
  type Route,
  routeKey,
} from '../../functions/routes.js';
import { type Site, serveSite } from './site.js';
import { requestPath, requestUrl } from './target.js';

interface Compiled {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly params: string[];
  readonly handler: LambdaHandler;
}

/** A route's handler, from exactly the entry the stack bundles. */
export async function importHandler(route: Route): Promise<LambdaHandler> {
  const module = (await import(
    /* @vite-ignore */ `../../${handlerEntry(route).replace(/\.ts$/, '.js')}`
  )) as {
    handler: LambdaHandler;
  };
  return module.handler;
}

/**
 * Every route with its handler: imported into this process, or the ones given (each route's own
 * process, from infra/local/isolated.ts).
 */
export async function loadRoutes(handlers?: ReadonlyMap<string, LambdaHandler>): Promise<Compiled[]> {
  return Promise.all(
    ROUTES.map(async (route) => {
      const params: string[] = [];
      const source = route.path
        .split('/')
        .map((segment) => {
          const param = /^\{(\w+)\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
          params.push(param[1]!);
          return '([^/]+)';
        })
        .join('/');
      const handler = handlers?.get(route.name) ?? (await importHandler(route));
      return { route, pattern: new RegExp(`^${source}$`), params, handler };
    }),
  );
}

const isText = (type: string | undefined) =>
  !type || /json|text|xml|x-www-form-urlencoded|javascript/i.test(type);

/** An HTTP request as API Gateway (HTTP API, payload format 2.0) hands it to a function. */
export function toGatewayEvent(
  request: IncomingMessage,
  body: Buffer,
  route: Route,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 {
  const url = requestUrl(request);
  const path = requestPath(request);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie')
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const now = new Date();
  const key = routeKey(route);
  const base64 = body.length > 0 && !isText(headers['content-type']);
  const cookies = request.headers.cookie?.split(';').map((cookie) => cookie.trim());
  return {
    version: '2.0',
    routeKey: key,
    rawPath: path,
    rawQueryString: url.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: request.method ?? 'GET',
        path,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString(base64 ? 'base64' : 'utf8') } : {}),
    isBase64Encoded: base64,
  };
}

/**
 * Writes an answer. Its `Date` is the service's clock (functions/clock.ts), not the machine's: moved
 * by KLONDIKE_CLOCK_OFFSET_S like the events' times, so a client that reads the server's time from
 * it (the web page's game clock) agrees with the log.
 */
export function send(response: ServerResponse, result: Response, extra: Record<string, string> = {}): void {
  const headers: Record<string, string | number | boolean> = {
    date: new Date(now()).toUTCString(),
    ...(result.headers ?? {}),
    ...extra,
  };
  const body =
    result.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = body.length;
  response.writeHead(result.statusCode, headers as Record<string, string>);
  response.end(body);
}

/**
 * The body, read only up to the route's limit and for at most `timeoutMs`: `too-large` as soon as it
 * is over the limit (by its Content-Length, or by what has arrived), `too-slow` when it is still
 * arriving after `timeoutMs`, without reading or keeping the rest.
 */
function readBody(
  request: IncomingMessage,
  limit: number,
  timeoutMs: number,
): Promise<Buffer | 'too-large' | 'too-slow'> {
  if (Number(request.headers['content-length'] ?? 0) > limit) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (outcome: 'too-large' | 'too-slow') => {
      clearTimeout(timer);
      request.off('data', onData);
      request.pause();
      resolve(outcome);
    };
    const timer = setTimeout(() => stop('too-slow'), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else stop('too-large');
    };
    request.on('data', onData);
    request.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    request.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Requests the local runtime answers itself, before the route table (the development issuer). */
export type LocalRoutes = (
  request: IncomingMessage,
  body: Buffer,
  response: ServerResponse,
) => Promise<boolean>;

export interface ServeOptions {
  /** The web client's files, served where no route matches (as CloudFront sends only the API's paths to the API). */
  readonly site?: Site | undefined;
  /** The security headers of the site's files (default: a page that fetches only its own origin). */
  readonly siteHeaders?: Readonly<Record<string, string>> | undefined;
  /** Each route's handler, when they run elsewhere (a process per route); else imported here. */
  readonly handlers?: ReadonlyMap<string, LambdaHandler> | undefined;
  readonly local?: LocalRoutes | undefined;
  /**
   * How long a request's body may take to arrive (default: API Gateway's 30 s, as its headers in
   * `listen`); then 408.
   */
  readonly bodyTimeoutMs?: number | undefined;
}

/** The server could not listen: the port is taken, or the address is not this machine's. */
class CannotListen extends Error {}

function cannotListen(error: NodeJS.ErrnoException, port: number, host: string): CannotListen {
  switch (error.code) {
    case 'EADDRINUSE':
      return new CannotListen(
        `port ${port} on ${host} is in use: stop what uses it, or choose another with --port (or PORT).`,
      );
    case 'EACCES':
      return new CannotListen(`port ${port} on ${host} needs privileges: choose one above 1023 with --port.`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new CannotListen(`${host} is not an address of this machine (--host).`);
    default:
      return new CannotListen(`cannot listen on ${host} port ${port}: ${error.message}`);
  }
}

/** A connection accepted before the routes are attached is answered at once, never held. */
const starting: RequestListener = (_, response) =>
  send(
    response,
    problemResponse(
      new Problem(
        'starting',
        'The local runtime is starting; retry in a second.',
        {},
        { 'retry-after': '1' },
      ),
    ),
    { connection: 'close' },
  );

/**
 * A server listening (port 0: a free one) that answers 503 `starting` with Retry-After until
 * `serve` attaches the routes; a port it cannot take is a CannotListen, in one line. A request whose
 * headers are still arriving after `requestTimeoutMs` (default API Gateway's 30 s, as for a body in
 * `serve`) is 408.
 */
/**
 * What each server has in hand: the requests taken, not yet answered (or given up by their client),
 * and how many it has taken in all (a stop reads until no more come).
 */
const inHand = new WeakMap<Server, { answering: Set<ServerResponse>; taken: number; closing: boolean }>();

/**
 * A stopping server reads what has reached it before it closes its port and its idle connections:
 * connections the system accepted for it, and requests already sent on them. Closed unread, such a
 * connection is reset, and its client cannot tell whether the request was served. It reads until
 * a pause of READ_QUIET_MS brings no new request, for READ_MOST_MS at most.
 */
const READ_QUIET_MS = 20;
const READ_MOST_MS = 1_000;

/**
 * Stops a server: it reads the requests already sent to it (READ_QUIET_MS), then takes no more
 * connections; the requests it has in hand are answered (each on a connection then closed), within
 * `graceMs`, and then every connection is closed. A request taken is never dropped unanswered while
 * it is being served (a write the store took, its answer lost), unless it outlasts the grace.
 */
export async function closeServer(server: Server, graceMs = 0): Promise<void> {
  const state = inHand.get(server) ?? { answering: new Set<ServerResponse>(), taken: 0, closing: false };
  state.closing = true;
  for (const response of state.answering) response.shouldKeepAlive = false;
  const began = Date.now();
  for (let taken = -1; taken !== state.taken && Date.now() - began < READ_MOST_MS; ) {
    taken = state.taken;
    // A pause, then a turn of the event loop past its reads (a timer runs before them).
    await new Promise((paused) => setTimeout(paused, READ_QUIET_MS));
    await new Promise((read) => setImmediate(read));
  }
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    const { answering } = state;
    const closeAll = () => {
      clearTimeout(grace);
      server.closeAllConnections();
    };
    const grace = setTimeout(closeAll, graceMs);
    if (answering.size === 0) closeAll();
    for (const response of answering) {
      response.once('close', () => {
        if (answering.size === 0) closeAll();
      });
    }
  });
}

export async function listen(
  port = 3000,
  host = '127.0.0.1',
  requestTimeoutMs = GATEWAY_TIMEOUT_MS,
): Promise<{ server: Server; port: number }> {
  const server = createServer(
    {
      headersTimeout: requestTimeoutMs,
      // The whole request: its headers, then its body (which `serve` gives as long), so that Node's
      // own limit is never the one that answers.
      requestTimeout: 2 * requestTimeoutMs + 1_000,
      // How often Node looks for such requests (its default, every 30 s, would answer up to 30 s late).
      connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs / 2),
    },
    starting,
  );
  // What Node's HTTP parser refuses (a raw non-ASCII target, a malformed header line) never reaches
  // a handler, nor do headers still arriving after their time; Node's own answer would be a bare 400
  // or 408. Every error is problem+json, these too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const problem = problemResponse(
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new Problem(
            'request-timeout',
            `The request's headers were still arriving after ${requestTimeoutMs / 1000} s.`,
          )
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? new Problem(
              'malformed-request',
              `The request's target and headers are over ${maxHeaderSize / 1024} KiB, more than this server reads.`,
            )
          : new Problem('malformed-request', 'The request is not valid HTTP/1.1: it could not be parsed.'),
    );
    const body = Buffer.from(problem.body ?? '', 'utf8');
    const head = [
      `HTTP/1.1 ${problem.statusCode} ${STATUS_CODES[problem.statusCode]}`,
      ...Object.entries(problem.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      `content-length: ${body.length}`,
      'connection: close',
    ];
    socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
  });
  const state = { answering: new Set<ServerResponse>(), taken: 0, closing: false };
  inHand.set(server, state);
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    state.taken++;
    // Taken while the server stops: answered, on a connection then closed.
    if (state.closing) response.shouldKeepAlive = false;
    state.answering.add(response);
    response.once('close', () => state.answering.delete(response));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(cannotListen(error, port, host)));
    server.listen(port, host, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Answers the route table's requests on the server with the same handlers Lambda runs. */
export async function serve(server: Server, options: ServeOptions = {}): Promise<void> {
  const loaded = await loadRoutes(options.handlers);
  // `$default` answers what no route matches, after every other route (as API Gateway orders them).
  const routes = loaded.filter((compiled) => compiled.route.path !== '$default');
  const fallback = loaded.find((compiled) => compiled.route.path === '$default')!;
  const match = (method: string | undefined, path: string) => {
    for (const compiled of routes) {
      const found = compiled.pattern.exec(path);
      if (!found || (compiled.route.method !== method && compiled.route.method !== 'ANY')) continue;
      const pathParameters = Object.fromEntries(
        compiled.params.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]),
      );
      return { compiled, pathParameters };
    }
    return { compiled: fallback, pathParameters: {} };
  };
  const bodyTimeoutMs = options.bodyTimeoutMs ?? GATEWAY_TIMEOUT_MS;
  server.removeListener('request', starting);
  server.on('request', async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const path = requestPath(request);
      const { compiled, pathParameters } = match(request.method, path);
      const limit = bodyLimit(compiled.route);
      const body = await readBody(request, limit, bodyTimeoutMs);
      if (typeof body === 'string') {
        // The handler would answer the same 413; answering here keeps nothing past the limit in
        // memory, and closing the connection stops the rest of the body from being read at all.
        response.once('finish', () => request.socket.destroy());
        const problem =
          body === 'too-large'
            ? payloadTooLarge(limit)
            : new Problem(
                'request-timeout',
                `The request body was still arriving after ${bodyTimeoutMs / 1000} s.`,
              );
        send(response, problemResponse(problem), { connection: 'close' });
        return;
      }
      if (compiled === fallback && (await options.local?.(request, body, response))) return;
      // The site's files where no route matches, before the 404 of `$default`.
      if (
        compiled === fallback &&
        options.site &&
        serveSite(options.site, request, response, options.siteHeaders)
      )
        return;
      send(response, await compiled.handler(toGatewayEvent(request, body, compiled.route, pathParameters)));
    } catch (error) {
      send(
        response,
        problemResponse(
          new Problem('malformed-request', `The request could not be read: ${(error as Error).message}`),
        ),
      );
    }
  });
}
