import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createGame } from '../../functions/handlers/createGame.js';
import { handler as playMove } from '../../functions/handlers/playMove.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { TIME_SCALE_ENV } from '../../functions/timeScale.js';
import { gatewayEvent, parse } from '../support/gateway.js';

/**
 * A store that accepts connections and never answers (a black hole, or a frozen dynalite). Without
 * `throwOnRequestTimeout` the SDK's requestTimeout only warns, and these requests hung until the store
 * came back; every call is now bounded, so each is answered 503 with Retry-After within about 3 s
 * (vitest's timeout is what fails if one hangs).
 */
let blackHole: Server;
const sockets: Socket[] = [];
beforeAll(async () => {
  blackHole = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  const { port } = blackHole.address() as { port: number };
  process.env[ENDPOINT_ENV] = `http://127.0.0.1:${port}`;
  process.env[TABLE_ENV] = 'black-hole';
  process.env.LOG_LEVEL = 'SILENT';
  // The store's limits as in AWS: they are what is tested.
  process.env[TIME_SCALE_ENV] = '1';
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => blackHole.close(() => resolve()));
});

describe('a store that never answers', () => {
  it('a move is answered 503 with Retry-After, not left hanging', async () => {
    const started = performance.now();
    const response = await playMove(
      gatewayEvent({
        method: 'POST',
        path: '/games/g/moves',
        pathParameters: { id: 'g' },
        headers: { authorization: 'Bearer t' },
        body: { type: 'draw' },
      }),
    );
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
    expect(parse(response).type).toBe('/problems/store-unavailable');
    console.info(`black hole: move answered 503 after ${Math.round(performance.now() - started)} ms`);
  });

  it('so is a creation', async () => {
    const response = await createGame(gatewayEvent({ method: 'POST', path: '/games', body: { seed: 1 } }));
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
  });
});
