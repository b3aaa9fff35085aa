import { availableParallelism } from 'node:os';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '../../functions/http/handler.js';
import { Problem } from '../../functions/http/problem.js';
import { problemResponse } from '../../functions/http/respond.js';
import { ROUTES, type Route } from '../../functions/routes.js';
import { oneAtATime, startContainer, startContainers } from './containers.js';
import { importHandler } from './server.js';

/**
 * Whether a request to `route` runs the solver: every request of a solver route but a creation
 * without `"winnable": true`, which deals without solving (functions/handlers/createGame.ts).
 */
export function runsSolver(
  route: Route,
  event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>,
): boolean {
  if (!route.solver) return false;
  if (route.name !== 'createGame') return true;
  try {
    const body = event.isBase64Encoded
      ? Buffer.from(event.body ?? '', 'base64').toString('utf8')
      : event.body;
    return (JSON.parse(body ?? '') as { winnable?: unknown } | null)?.winnable === true;
  } catch {
    // Not JSON: the handler answers 400 without solving.
    return false;
  }
}

/** Each worker holds its own handlers, SDK and solver (some 55 MB): a many-core laptop needs no more. */
const MOST_WORKERS = 8;

/**
 * A worker a core but the one the event loop answers on: with a worker on every core, the solvers
 * take the event loop's CPU too (on 2 cores, another player's GET p95 doubled and hints cut short
 * by their deadline appeared; `npm run bench:hints`).
 */
const defaultSize = () => Math.max(1, Math.min(MOST_WORKERS, availableParallelism() - 1));

export interface SolverWorkers {
  /**
   * The handler of each solver route, by name, at once: what runs the solver runs in a worker
   * thread, and waits for the workers while they start.
   */
  readonly handlers: ReadonlyMap<string, LambdaHandler>;
  /** Resolves once every worker is ready; rejects if one cannot start. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * The solver off the runtime's event loop (docs/api.md, "The local runtime answers every
 * request"): a pool of worker threads (`size`, by default a core but one), each hosting every
 * solver route and taking one request at a time, so that a solver's seconds of CPU hold up neither
 * another request nor its own store calls. A request that finds every worker busy waits for the
 * first one free. A request to a solver route that does not solve (a creation without `winnable`)
 * stays on the event loop, with the same handler. The workers load the handlers for longest of
 * anything in a start: the other routes need not wait for them.
 */
export function solverWorkers(options: { size?: number } = {}): SolverWorkers {
  const routes = ROUTES.filter((route) => route.solver);
  const names = routes.map((route) => route.name);
  const containers = startContainers(
    Array.from({ length: options.size ?? defaultSize() }, () => () => startContainer('thread', names)),
  );
  // A failure to start is the start's (it awaits `ready`); a request meanwhile is answered 500.
  const run = containers.then(
    oneAtATime,
    (error: Error) => async () =>
      problemResponse(new Problem('internal', `The solver's workers could not start: ${error.message}`)),
  );
  const here = new Map(routes.map((route) => [route.name, importHandler(route)]));
  const handlers = new Map<string, LambdaHandler>(
    routes.map((route) => {
      const handler: LambdaHandler = async (event, context) =>
        runsSolver(route, event)
          ? (await run)(route.name, event)
          : (await here.get(route.name)!)(event, context);
      return [route.name, handler] as const;
    }),
  );
  const ready = Promise.all([containers, ...here.values()]).then(() => {});
  return {
    handlers,
    ready,
    close: async () => {
      const started = await containers.catch(() => []);
      await Promise.all(started.map((worker) => worker.close()));
    },
  };
}
