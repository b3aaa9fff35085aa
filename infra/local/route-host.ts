/**
 * A container for route handlers, as Lambda runs a function: the local runtime's solver routes in
 * worker threads (infra/local/workers.ts), and with `--isolated` every route in a process of its own
 * (infra/local/isolated.ts). Its code is a bundle of this module and the handlers' entries, as the
 * stack bundles them (./bundles.ts), and it runs one invocation at a time: a second one sent while
 * one runs is a fault of the caller's queue, answered 500 rather than let two requests share a CPU
 * that each one's deadlines assume is theirs.
 */
import { parentPort } from 'node:worker_threads';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '../../functions/http/handler.js';
import { Problem } from '../../functions/http/problem.js';
import { problemResponse, type Response } from '../../functions/http/respond.js';
import { routeNamed } from '../../functions/routes.js';

export interface Invocation {
  readonly id: number;
  readonly route: string;
  readonly event: APIGatewayProxyEventV2;
}

export type HostMessage = { readonly ready: true } | { readonly id: number; readonly response: Response };

/**
 * Serves `names` with their `handlers` from this thread or process. A name that is no route throws
 * before the host says it is ready: the container then exits, and its start fails.
 */
export function hostRoutes(names: readonly string[], handlers: ReadonlyMap<string, LambdaHandler>): void {
  for (const name of names) routeNamed(name);
  // Stack traces name the sources, not the bundle's lines (the bundle's map is beside it).
  process.setSourceMapsEnabled(true);
  const post = (message: HostMessage) =>
    parentPort ? parentPort.postMessage(message) : process.send?.(message);

  let running = false;
  const invoke = async ({ id, route, event }: Invocation) => {
    const handler = handlers.get(route);
    if (running || !handler) {
      const why = running ? 'was sent a second request while it ran one' : `does not host the route ${route}`;
      post({ id, response: problemResponse(new Problem('internal', `A local route container ${why}.`)) });
      return;
    }
    running = true;
    try {
      post({ id, response: await handler(event) });
    } finally {
      running = false;
    }
  };
  if (parentPort) parentPort.on('message', invoke);
  else process.on('message', invoke);
  post({ ready: true });
}
