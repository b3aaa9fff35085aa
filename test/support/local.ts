import { afterAll, beforeAll } from 'vitest';
import { type Runtime, type RuntimeOptions, startRuntime } from '../../infra/local/runtime.js';

/**
 * The local runtime on a free port, with a fresh in-memory dynalite: what `npm start` runs. With
 * `isolated`, every route runs in a process of its own, as in Lambda (`npm start -- --isolated`);
 * with `site`, the web client is served at `/` too.
 */
export async function startLocal(options: Omit<RuntimeOptions, 'port'> = {}): Promise<Runtime> {
  process.env.LOG_LEVEL = 'SILENT';
  return startRuntime({ port: 0, ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** A tiny HTTP client for tests. */
export function client(url: string) {
  async function call(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Answer> {
    const response = await fetch(url + path, {
      method,
      headers: options.headers ?? {},
      ...(options.raw !== undefined
        ? { body: options.raw }
        : options.body !== undefined
          ? { body: JSON.stringify(options.body) }
          : {}),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body, text };
  }
  return {
    call,
    get: (path: string, headers?: Record<string, string>) => call('GET', path, headers ? { headers } : {}),
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      call('POST', path, { ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) }),
  };
}

export type Client = ReturnType<typeof client>;

/** Creates a game and returns its id, token and an auth header. */
export async function newGame(api: Client, body: unknown = { seed: 1 }) {
  const created = await api.post('/games', body);
  if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
  return {
    id: created.body.id as string,
    token: created.body.token as string,
    auth: { authorization: `Bearer ${created.body.token}` },
    created,
  };
}

export type Local = Awaited<ReturnType<typeof startLocal>>;

/**
 * Starts the local runtime before a test file's tests and stops it after them. The returned
 * object's `api` and `local` are set once the tests run.
 */
export function useLocalApi(options: { isolated?: boolean } = {}): { api: Client; local: Local } {
  const context = {} as { api: Client; local: Local };
  beforeAll(async () => {
    context.local = await startLocal(options);
    context.api = client(context.local.url);
  });
  afterAll(() => context.local?.stop());
  return context;
}
