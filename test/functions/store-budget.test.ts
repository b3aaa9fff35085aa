import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCard, orderedDeck, parseCard } from '../../domain/index.js';
import { handler as autoplay } from '../../functions/handlers/autoplay.js';
import { handler as createGame } from '../../functions/handlers/createGame.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { TIME_SCALE_ENV } from '../../functions/timeScale.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';
import { gatewayEvent, parse } from '../support/gateway.js';

/**
 * A store that answers every call, but slowly: each answer 900 ms late, under the SDK's one-second
 * attempt timeout. Bounded per call only, a request that makes four calls would take 3.6 s and
 * answer 200; the store's time is bounded per request (2.5 s), so it is answered 503 with
 * Retry-After before the store has answered all four (docs/api.md: a request never hangs on
 * the store). What is counted is the store's answers, not the machine's time.
 */
const DELAY_MS = 900;
let store: LocalStore;
let proxy: Server;
let delay = 0;
/** Answers the slow store has sent. */
let answered = 0;

beforeAll(async () => {
  store = await startLocalStore();
  const upstream = new URL(store.endpoint);
  proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const passed = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () =>
            setTimeout(() => {
              if (outgoing.destroyed) return;
              outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
              outgoing.end(Buffer.concat(body));
              answered++;
            }, delay),
          );
        },
      );
      passed.on('error', () => outgoing.destroy());
      passed.end(Buffer.concat(chunks));
    });
    outgoing.on('error', () => {});
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  process.env[ENDPOINT_ENV] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  process.env[TABLE_ENV] = store.tableName;
  process.env[READ_TABLE_ENV] = store.readTableName;
  process.env.LOG_LEVEL = 'SILENT';
  // The store's limits as in AWS: DELAY_MS is chosen against them.
  process.env[TIME_SCALE_ENV] = '1';
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await store.close();
});

/** A deal with the aces of clubs and diamonds face up on t1 and t2: autoplay sends both home. */
function twoAcesUp(): string[] {
  const aces = [parseCard('AC')!, parseCard('AD')!];
  const rest = orderedDeck().filter((card) => !aces.includes(card));
  return [aces[0]!, ...rest.slice(0, 6), aces[1]!, ...rest.slice(6)].map(formatCard);
}

describe('a store that answers every call slowly', () => {
  it('a request that needs four calls is answered 503 with Retry-After at its store budget, not 200 after all four', async () => {
    delay = 0;
    const created = parse(
      await createGame(gatewayEvent({ method: 'POST', path: '/games', body: { deck: twoAcesUp() } })),
    );
    delay = DELAY_MS;
    answered = 0;
    const started = performance.now();
    // Load (Query), the key's first answer (GetItem), then one put for each ace.
    const response = await autoplay(
      gatewayEvent({
        method: 'POST',
        path: `/games/${created.id}/autoplay`,
        pathParameters: { id: created.id },
        headers: { authorization: `Bearer ${created.token}`, 'idempotency-key': 'slow-store-autoplay' },
      }),
    );
    console.info(`slow store: autoplay answered after ${Math.round(performance.now() - started)} ms`);
    expect(answered).toBeLessThan(4);
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
    expect(parse(response).type).toBe('/problems/store-unavailable');
    // The put cut short may still have landed: the retry with the same key never applies it twice.
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    delay = 0;
    const retried = await autoplay(
      gatewayEvent({
        method: 'POST',
        path: `/games/${created.id}/autoplay`,
        pathParameters: { id: created.id },
        headers: { authorization: `Bearer ${created.token}`, 'idempotency-key': 'slow-store-autoplay' },
      }),
    );
    expect(retried.statusCode).toBe(200);
    const view = parse(retried);
    expect(view.foundations.C).toEqual(['AC']);
    expect(view.version).toBeLessThanOrEqual(2);
  });
});
