import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LambdaHandler } from '../../functions/http/handler.js';
import { Problem } from '../../functions/http/problem.js';
import { problemResponse, type Response } from '../../functions/http/respond.js';
import { ROUTES } from '../../functions/routes.js';

const ENTRY = fileURLToPath(new URL('./route-process.ts', import.meta.url));

export interface IsolatedRoutes {
  /** The handler of each route, by name: each call runs in that route's own process. */
  readonly handlers: ReadonlyMap<string, LambdaHandler>;
  close(): Promise<void>;
}

/**
 * Every route in a process of its own (`npm start -- --isolated`, and the tests that must see what
 * Lambda sees): a cache or any other memory of one route can never help or hide a bug in another.
 */
export async function isolatedRoutes(options: { containers?: number } = {}): Promise<IsolatedRoutes> {
  const children: ChildProcess[] = [];
  const handlers = new Map<string, LambdaHandler>();
  const start = async (route: (typeof ROUTES)[number]): Promise<LambdaHandler> => {
    const child = fork(ENTRY, [route.name], { execArgv: ['--import', 'tsx'], serialization: 'advanced' });
    children.push(child);
    const waiting = new Map<number, (response: Response) => void>();
    let next = 0;
    await new Promise<void>((ready, failed) => {
      child.once('exit', (code) => {
        failed(new Error(`route ${route.name} exited (${code})`));
        // As Lambda's runtime error reaches the client as a 500, so does a route process that died.
        const died = problemResponse(new Problem('internal', `The ${route.name} process exited (${code}).`));
        for (const answer of waiting.values()) answer(died);
        waiting.clear();
      });
      child.on('message', (message: { ready?: true; id?: number; response?: Response }) => {
        if (message.ready) ready();
        else waiting.get(message.id!)?.(message.response!);
        waiting.delete(message.id!);
      });
    });
    return (event) =>
      new Promise<Response>((answer) => {
        const id = next++;
        waiting.set(id, answer);
        child.send({ id, event });
      });
  };
  // With several containers a route, requests take them in turn, as warm Lambda containers share
  // the traffic of a busy function.
  await Promise.all(
    ROUTES.map(async (route) => {
      const containers = await Promise.all(
        Array.from({ length: options.containers ?? 1 }, () => start(route)),
      );
      let turn = 0;
      handlers.set(route.name, (event) => containers[turn++ % containers.length]!(event));
    }),
  );
  return {
    handlers,
    close: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill();
            }),
        ),
      );
    },
  };
}
