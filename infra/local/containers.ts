import { fork } from 'node:child_process';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { busy, Problem } from '../../functions/http/problem.js';
import { problemResponse, type Response } from '../../functions/http/respond.js';
import { FUNCTION_TIMEOUT_SECONDS, GATEWAY_TIMEOUT_MS } from '../../functions/routes.js';
import { timeLimit } from '../../functions/timeScale.js';
import { containerBundle } from './bundles.js';
import type { HostMessage, Invocation } from './route-host.js';

/** A container of route handlers off the runtime's event loop: a worker thread, or a process. */
export type ContainerKind = 'thread' | 'process';

/** Runs route invocations, one at a time, as a warm Lambda container does. */
export interface Container {
  /** Runs one invocation; whoever calls it sends the next only once this one is answered. */
  invoke(route: string, event: APIGatewayProxyEventV2): Promise<Response>;
  close(): Promise<void>;
}

interface Host {
  send(invocation: Invocation): void;
  onMessage(listener: (message: HostMessage) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

/** A host running `code`, the bundle of its routes (./bundles.ts): plain JavaScript, no tsx. */
function startHost(kind: ContainerKind, code: string): Host {
  if (kind === 'process') {
    const child = fork(code, [], { execArgv: [], serialization: 'advanced' });
    // A process that cannot be started or sent to exits too: its exit is what is acted on.
    child.on('error', () => {});
    return {
      send: (invocation) => child.send(invocation),
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.once('exit', listener),
      kill: () => child.kill(),
    };
  }
  // The same environment as the runtime, live: a thread may start before the runtime has set it all.
  // No execArgv of the runtime's: a thread inherits them, and under `npm start` that is tsx's loader,
  // which the bundle does not need and which costs a thread about half a second of CPU to set up.
  const worker = new Worker(code, { env: SHARE_ENV, execArgv: [] });
  // An uncaught error ends the thread: its exit is what is acted on.
  worker.on('error', () => {});
  return {
    send: (invocation) => worker.postMessage(invocation),
    onMessage: (listener) => worker.on('message', listener),
    onExit: (listener) => worker.once('exit', listener),
    kill: () => void worker.terminate(),
  };
}

/**
 * A container hosting `routes`, started and ready. As Lambda does, it stops an invocation that runs
 * past `timeoutMs` (the functions' timeout, scaled by KLONDIKE_TIME_SCALE), answering it 503 `busy`,
 * and a container that died or was stopped is started afresh by the next invocation.
 */
export async function startContainer(
  kind: ContainerKind,
  routes: readonly string[],
  options: { timeoutMs?: number } = {},
): Promise<Container> {
  const timeoutMs = options.timeoutMs ?? timeLimit(FUNCTION_TIMEOUT_SECONDS * 1000);
  const code = await containerBundle(routes);
  let host: Host | undefined;
  let ready: Promise<void> = Promise.resolve();
  let current: { id: number; answer: (response: Response) => void } | undefined;
  let next = 0;
  const start = () => {
    const started = startHost(kind, code);
    host = started;
    ready = new Promise<void>((resolve, reject) => {
      started.onMessage((message) => {
        if ('ready' in message) resolve();
        else if (current?.id === message.id) current.answer(message.response);
      });
      started.onExit((code) => {
        const why = `The route container of ${routes.join(', ')} exited (${code})`;
        reject(new Error(`${why} before it was ready.`));
        if (host !== started) return;
        host = undefined;
        // As Lambda's runtime error reaches the client as a 500, so does a container that died.
        current?.answer(problemResponse(new Problem('internal', `${why}.`)));
      });
    });
    // Nobody may be waiting when a container fails before it is ready (an invocation then answers it).
    ready.catch(() => {});
  };
  const stop = () => {
    const stopping = host;
    if (!stopping) return;
    host = undefined;
    stopping.kill();
  };
  start();
  await ready;
  return {
    async invoke(route, event) {
      if (!host) start();
      try {
        await ready;
      } catch (error) {
        return problemResponse(new Problem('internal', (error as Error).message));
      }
      const target = host;
      if (!target) {
        return problemResponse(
          new Problem('internal', `The route container of ${routes.join(', ')} exited.`),
        );
      }
      return new Promise<Response>((resolve) => {
        const id = next++;
        const timer = setTimeout(() => {
          stop();
          current = undefined;
          resolve(
            problemResponse(
              busy(`The request ran past its ${timeoutMs / 1000} s and was stopped; retry in a moment.`),
            ),
          );
        }, timeoutMs);
        current = {
          id,
          answer: (response) => {
            clearTimeout(timer);
            current = undefined;
            resolve(response);
          },
        };
        target.send({ id, route, event });
      });
    },
    async close() {
      const running = host;
      stop();
      if (running) await new Promise<void>((resolve) => running.onExit(() => resolve()));
    },
  };
}

/** Starts containers together; if one cannot start, the others are closed again. */
export async function startContainers(starts: readonly (() => Promise<Container>)[]): Promise<Container[]> {
  const started = await Promise.allSettled(starts.map((start) => start()));
  const failed = started.find((outcome) => outcome.status === 'rejected');
  const running = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  if (!failed) return running;
  await Promise.all(running.map((container) => container.close()));
  throw failed.reason;
}

/**
 * Requests shared among containers that take one at a time: each goes to an idle container, or
 * waits its turn, first come first served. One that waits longer than API Gateway would
 * (`waitLimitMs`, scaled by KLONDIKE_TIME_SCALE) is answered 503 `busy` without running, as the
 * gateway gives up on it.
 */
export function oneAtATime(
  containers: readonly Container[],
  waitLimitMs = timeLimit(GATEWAY_TIMEOUT_MS),
): (route: string, event: APIGatewayProxyEventV2) => Promise<Response> {
  const idle = [...containers];
  const waiting: ((container: Container) => void)[] = [];
  const release = (container: Container) => {
    const turn = waiting.shift();
    if (turn) turn(container);
    else idle.push(container);
  };
  const turn = () =>
    new Promise<Container | undefined>((resolve) => {
      const take = (container: Container) => {
        clearTimeout(timer);
        resolve(container);
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(take), 1);
        resolve(undefined);
      }, waitLimitMs);
      waiting.push(take);
    });
  return async (route, event) => {
    const container = idle.shift() ?? (await turn());
    if (!container) {
      return problemResponse(
        busy(`Every container of this route was busy for ${waitLimitMs / 1000} s; retry in a moment.`),
      );
    }
    try {
      return await container.invoke(route, event);
    } finally {
      release(container);
    }
  };
}
