import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';

/** `$default`: every request that no route matches gets a problem+json 404, as every other error does. */
export const handler = httpHandler('notFound', async (request) => {
  throw new Problem('not-found', `No route ${request.method} ${request.path}. See /openapi.json.`);
});
