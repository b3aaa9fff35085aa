import { availableParallelism } from 'node:os';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '../../functions/http/handler.js';
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
  /** The handler of each solver route, by name: what runs the solver runs in a worker thread. */
  readonly handlers: ReadonlyMap<string, LambdaHandler>;
  close(): Promise<void>;
}

/**
 * The solver off the runtime's event loop (CONTRACT section 3, "The local runtime answers every
 * request"): a pool of worker threads (`size`, by default a core but one), each hosting every solver route and
 * taking one request at a time, so that a solver's seconds of CPU hold up neither another request
 * nor its own store calls. A request that finds every worker busy waits for the first one free.
 * A request to a solver route that does not solve (a creation without `winnable`) stays on the
 * event loop, with the same handler.
 */
export async function solverWorkers(options: { size?: number } = {}): Promise<SolverWorkers> {
  const routes = ROUTES.filter((route) => route.solver);
  const names = routes.map((route) => route.name);
  const containers = await startContainers(
    Array.from({ length: options.size ?? defaultSize() }, () => () => startContainer('thread', names)),
  );
  const run = oneAtATime(containers);
  const handlers = new Map<string, LambdaHandler>(
    await Promise.all(
      routes.map(async (route) => {
        const here = await importHandler(route);
        const handler: LambdaHandler = (event, context) =>
          runsSolver(route, event) ? run(route.name, event) : here(event, context);
        return [route.name, handler] as const;
      }),
    ),
  );
  return {
    handlers,
    close: async () => void (await Promise.all(containers.map((worker) => worker.close()))),
  };
}
