import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerThisMachineOnly } from './target.js';

/** A DynamoDB request as it passes the proxy: its operation (`PutItem`, `Query`, ...) and JSON body. */
export interface StoreRequest {
  readonly operation: string;
  readonly body: Record<string, unknown>;
}

/** What the store answered: its status and JSON body; none when it could not be reached. */
export interface StoreAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/**
 * One concern that watches the store's traffic (the change feed, a benchmark's meter). `before`
 * runs before a request is forwarded (and may return the body to send instead); `after` runs once
 * the store has answered, whatever became of the caller (it may have given up on the answer).
 */
export interface Tap {
  before?(request: StoreRequest): Record<string, unknown> | undefined;
  after?(request: StoreRequest, answer: StoreAnswer | undefined): void;
}

export interface StoreProxy {
  /** Where the functions send their DynamoDB requests. */
  readonly endpoint: string;
  close(): Promise<void>;
}

const parse = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/**
 * A pass-through in front of a DynamoDB-compatible store, on a free loopback port: every request
 * goes to `upstream` as it came (or as a tap rewrote its body), and every answer back as it came.
 * The taps see each request and answer; a request whose caller went away is still forwarded to the
 * end, so the taps learn what the store did with it.
 */
export async function startStoreProxy(upstream: string, taps: readonly Tap[]): Promise<StoreProxy> {
  const target = new URL(upstream);
  const server: Server = createServer((incoming, outgoing) => {
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      let sent = Buffer.concat(chunks);
      const request: StoreRequest = { operation, body: parse(sent.toString('utf8')) };
      try {
        for (const tap of taps) {
          const rewritten = tap.before?.(request);
          if (rewritten) sent = Buffer.from(JSON.stringify(rewritten), 'utf8');
        }
      } catch (error) {
        // A tap that cannot take the request (the change feed's journal cannot be written): it is
        // not forwarded, and answered as DynamoDB answers a fault of its own, which the client
        // may try again.
        outgoing.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
        outgoing.end(
          JSON.stringify({
            __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
            message: (error as Error).message,
          }),
        );
        return;
      }
      const done = (answer: StoreAnswer | undefined) => {
        for (const tap of taps) tap.after?.(request, answer);
      };
      const headers = { ...incoming.headers, host: target.host, 'content-length': String(sent.length) };
      const call = forward(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
        (answer) => {
          const answered: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => answered.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(answered);
            done({ status: answer.statusCode ?? 502, body: parse(text.toString('utf8')) });
            if (outgoing.destroyed) return;
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(text);
          });
        },
      );
      call.on('error', (error) => {
        done(undefined);
        if (outgoing.destroyed) return;
        outgoing.writeHead(502);
        outgoing.end(String(error));
      });
      call.end(sent);
    });
  });
  answerThisMachineOnly(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
