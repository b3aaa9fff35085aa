import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Response } from '../../functions/http/respond.js';
import { type Container, oneAtATime, startContainer, startContainers } from '../../infra/local/containers.js';
import type { Runtime } from '../../infra/local/runtime.js';
import { HINTED, hinted, readWhileHinting } from '../integration/hardening-suite.js';
import { gatewayEvent } from '../support/gateway.js';
import { type Client, client, newGame, startLocal } from '../support/local.js';

/**
 * docs/api.md, "The local runtime answers every request": the solver routes run in containers
 * off the event loop (worker threads; with --isolated, a process a route: both in
 * test/integration/hardening-suite.ts), each taking one request at a time, as a Lambda container does.
 */
describe('a container', () => {
  let local: Runtime;
  let api: Client;
  beforeAll(async () => {
    local = await startLocal({ workers: 1 });
    api = client(local.url);
  });
  afterAll(() => local?.stop());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('of one worker thread takes the hints in turn, none of them held up by another', async () => {
    const { read, order, hints } = await readWhileHinting(api);
    expect(read.status).toBe(200);
    expect(order[0]).toBe('read');
    for (const answer of hints) expect(HINTED).toContain(hinted(answer));
  });

  it('stops an invocation past its time limit with 503 busy; the next invocation gets a fresh one', async () => {
    const { id, auth } = await newGame(api, { seed: 0 });
    const event = (path: string) => gatewayEvent({ path, pathParameters: { id }, headers: auth });
    const container = await startContainer('thread', ['hint', 'getGame'], { timeoutMs: 10_000 });
    try {
      // The limit passes on a fake clock while the hint solves (for hundreds of milliseconds).
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const hint = container.invoke('hint', event(`/games/${id}/hint`));
      await vi.advanceTimersByTimeAsync(10_000);
      const late = await hint;
      vi.useRealTimers();
      expect(late.statusCode).toBe(503);
      expect(late.headers?.['retry-after']).toBe('1');
      expect(JSON.parse(late.body!).type).toBe('/problems/busy');
      const read = await container.invoke('getGame', event(`/games/${id}`));
      expect(read.statusCode).toBe(200);
    } finally {
      await container.close();
    }
  });
});

/** A container whose invocations end when the test says, and which counts how many run at once. */
function fakeContainer(name: string, log: string[]) {
  let running = 0;
  const ends: (() => void)[] = [];
  const container: Container = {
    invoke: async (route) => {
      running++;
      if (running > 1) log.push(`${name} ran two at once`);
      log.push(`${name} runs ${route}`);
      await new Promise<void>((resolve) => ends.push(resolve));
      running--;
      return { statusCode: 200, body: route };
    },
    close: async () => {},
  };
  return { container, finish: () => ends.shift()?.() };
}

const event = {} as APIGatewayProxyEventV2;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('requests shared among containers', () => {
  it('take an idle container, else wait their turn, first come first served', async () => {
    const log: string[] = [];
    const a = fakeContainer('a', log);
    const b = fakeContainer('b', log);
    const run = oneAtATime([a.container, b.container]);
    const answers = ['first', 'second', 'third', 'fourth'].map((route) => run(route, event));
    await settle();
    expect(log).toEqual(['a runs first', 'b runs second']);
    b.finish();
    await settle();
    a.finish();
    await settle();
    expect(log).toEqual(['a runs first', 'b runs second', 'b runs third', 'a runs fourth']);
    a.finish();
    b.finish();
    expect((await Promise.all(answers)).map((answer: Response) => answer.body)).toEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
  });

  it("are answered 503 busy when they wait longer than API Gateway's limit, and never run", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const log: string[] = [];
      const only = fakeContainer('a', log);
      const run = oneAtATime([only.container], 30_000);
      const first = run('first', event);
      const waiting = run('second', event);
      await vi.advanceTimersByTimeAsync(30_000);
      const late = await waiting;
      expect(late.statusCode).toBe(503);
      expect(late.headers?.['retry-after']).toBe('1');
      expect(JSON.parse(late.body!).type).toBe('/problems/busy');
      only.finish();
      expect((await first).body).toBe('first');
      // The container is free again, and the request given up on never ran.
      const next = run('third', event);
      await settle();
      only.finish();
      expect((await next).body).toBe('third');
      expect(log).toEqual(['a runs first', 'a runs third']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('starting containers', () => {
  it('a host that cannot start fails the start, and the containers already up are closed again', async () => {
    await expect(startContainer('thread', ['no-such-route'])).rejects.toThrow(
      /exited .* before it was ready/,
    );
    const closed: string[] = [];
    const up = (name: string) => async (): Promise<Container> => ({
      invoke: async () => ({ statusCode: 200 }),
      close: async () => void closed.push(name),
    });
    const failing = async (): Promise<Container> => {
      throw new Error('no container');
    };
    await expect(startContainers([up('a'), failing, up('b')])).rejects.toThrow('no container');
    expect(closed.sort()).toEqual(['a', 'b']);
  });
});
