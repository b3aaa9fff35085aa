import type { LambdaHandler } from '../../functions/http/handler.js';
import { ROUTES } from '../../functions/routes.js';
import { containerBundles } from './bundles.js';
import { oneAtATime, startContainer, startContainers } from './containers.js';

export interface IsolatedRoutes {
  /** The handler of each route, by name: each call runs in one of that route's own processes. */
  readonly handlers: ReadonlyMap<string, LambdaHandler>;
  close(): Promise<void>;
}

/**
 * Every route in processes of its own (`npm start -- --isolated`, and the tests that must see what
 * Lambda sees): a cache or any other memory of one route can never help or hide a bug in another.
 * Each process takes one request at a time, as a Lambda container does; with several containers a
 * route (`containers`), its requests take the first one free, else wait their turn.
 */
export async function isolatedRoutes(options: { containers?: number } = {}): Promise<IsolatedRoutes> {
  const each = options.containers ?? 1;
  // Built together before any container asks for its own.
  await containerBundles(ROUTES.map((route) => [route.name]));
  const all = await startContainers(
    ROUTES.flatMap((route) =>
      Array.from({ length: each }, () => () => startContainer('process', [route.name])),
    ),
  );
  const handlers = new Map<string, LambdaHandler>(
    ROUTES.map((route, i) => {
      const run = oneAtATime(all.slice(i * each, (i + 1) * each));
      return [route.name, (event) => run(route.name, event)] as const;
    }),
  );
  return { handlers, close: async () => void (await Promise.all(all.map((container) => container.close()))) };
}
