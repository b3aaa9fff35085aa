import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through to a DynamoDB-compatible store that can hold PutItem requests back before
 * forwarding them (`control.putDelayMs`), all of them or those `control.delays` picks by their body
 * (a store that finishes a write after its caller gave up on it), and fail those `control.fails`
 * picks without forwarding them (a write that never lands: a 500, which the SDK retries).
 */
export async function slowStore(upstream: string) {
  const target = new URL(upstream);
  const control: {
    putDelayMs: number;
    delays?: (body: string) => boolean;
    fails?: (body: string) => boolean;
  } = { putDelayMs: 0 };
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const isPut = String(incoming.headers['x-amz-target']).endsWith('.PutItem');
      const text = Buffer.concat(chunks).toString('utf8');
      if (isPut && control.fails?.(text)) {
        outgoing.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
        outgoing.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError' }));
        return;
      }
      const held = isPut && (control.delays?.(text) ?? true);
      setTimeout(
        () => {
          const call = forward(
            {
              host: target.hostname,
              port: target.port,
              path: incoming.url,
              method: incoming.method,
              // Addressed to the store itself, as a client of it would (it answers no other name).
              headers: { ...incoming.headers, host: target.host },
            },
            (answer) => {
              const body: Buffer[] = [];
              answer.on('data', (chunk: Buffer) => body.push(chunk));
              answer.on('end', () => {
                if (outgoing.destroyed) return;
                outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
                outgoing.end(Buffer.concat(body));
              });
            },
          );
          call.on('error', () => outgoing.destroy());
          call.end(Buffer.concat(chunks));
        },
        held ? control.putDelayMs : 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    control,
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
