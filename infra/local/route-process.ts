/**
 * One route of the local runtime in a process of its own, as Lambda runs each route in containers of
 * its own: nothing in memory is shared with the other routes. The parent (infra/local/isolated.ts)
 * sends API Gateway events over IPC and gets the handler's responses back.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routeNamed } from '../../functions/routes.js';
import { importHandler } from './server.js';

interface Invocation {
  readonly id: number;
  readonly event: APIGatewayProxyEventV2;
}

const handler = await importHandler(routeNamed(process.argv[2] ?? ''));
process.on('message', async ({ id, event }: Invocation) => {
  const response = await handler(event);
  process.send?.({ id, response });
});
process.send?.({ ready: true });
