import { randomUUID } from 'node:crypto';
import type {
  Analysis,
  CreatedGame,
  Daily,
  Frame,
  GameEvent,
  Hint,
  HistoryStep,
  Leaderboard,
  Move,
  NewGame,
  PlayerProfile,
  PlayerStats,
  Problem,
  View,
} from './types.js';

/** Where the local runtime (`npm start`) listens when PORT is not set. */
export const DEFAULT_URL = 'http://127.0.0.1:3000';

/**
 * Where `npm start` listens in this environment: the same PORT (default 3000). Undefined when PORT
 * is set to something that is not a port number, which the command line reports.
 */
export function defaultUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const port = env.PORT?.trim();
  if (port === undefined || port === '') return DEFAULT_URL;
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return undefined;
  return `http://127.0.0.1:${Number(port)}`;
}
/** How long one request may take before the client gives up on it. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The API answered, and refused: `message` is the problem's `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** The API did not answer (down, unreachable, too slow, or not the API at all). */
export class NetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The player stopped a request under way (Ctrl-C): whether it was played is not known. */
export class Interrupted extends NetworkError {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

export interface ApiOptions {
  url?: string;
  /** The game's bearer token, for the routes of a game in play. */
  token?: string;
  timeoutMs?: number;
  /** Tries after a 409, 429 or 503 (honouring Retry-After, at most 2 s a wait). */
  retries?: number;
  fetch?: typeof fetch;
  /** Ends a request under way at once (Ctrl-C): it fails with `Interrupted`. */
  signal?: AbortSignal;
}

/** The origin and path prefix of the API, without a trailing slash. */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

const isLocal = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/i.test(url);

/** One line saying why a request never got an answer. */
export function describeFailure(url: string, error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return `${url} did not answer within ${formatSeconds(timeoutMs)}: is it overloaded? (--timeout to wait longer)`;
  }
  const code = err?.cause?.code ?? err?.code;
  if (isLocal(url) && (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === undefined)) {
    return `cannot reach ${url}: is \`npm start\` running? (on another port: PORT=... as it was started, or --url)`;
  }
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'no such host'
        : (err?.cause?.message ?? code ?? 'network error');
  return `cannot reach ${url}: ${why}${code && !why.includes(code) ? ` (${code})` : ''}`;
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Api = ReturnType<typeof createApi>;

/**
 * The player a sign-in token (a JWT: three dot-separated parts) names in its `sub`, read without
 * checking it (the service checks it); undefined for a game's token, which has no dots.
 */
function signedInAs(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const sub = (JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { sub?: unknown }).sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** A small client of the Klondike HTTP API. Every method throws ApiError or NetworkError. */
export function createApi(options: ApiOptions = {}) {
  const base = normalizeUrl(options.url ?? DEFAULT_URL);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? 2;
  const doFetch = options.fetch ?? fetch;
  let token = options.token;
  /** Signed in: the token is the player's JWT, which opens all of their games. */
  let player: string | undefined = token === undefined ? undefined : signedInAs(token);

  /**
   * One request. A write to a game sends the version the player sees as `expected` (If-Match): one
   * made on a game that moved on meanwhile (another window, or an earlier request that landed
   * although its answer never came) is refused 412, not applied to a table the player has not seen.
   */
  async function call<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    expected?: number,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (method !== 'GET') {
      headers['content-type'] = 'application/json';
      // The same key on every try: a retried write is applied once.
      headers['idempotency-key'] = randomUUID();
    }
    if (expected !== undefined) headers['if-match'] = `"${expected}"`;
    for (let attempt = 0; ; attempt++) {
      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        const response = await doFetch(base + path, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: options.signal
            ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
            : AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        text = await response.text();
      } catch (error) {
        if (options.signal?.aborted) throw new Interrupted();
        throw new NetworkError(describeFailure(base, error, timeoutMs));
      }
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        throw new NetworkError(
          `${base}${path} answered ${status} with something that is not JSON: is it the API?`,
        );
      }
      if (status >= 200 && status < 300) return parsed as T;
      if ((status === 409 || status === 429 || status === 503) && attempt < retries) {
        const seconds = Number(retryAfter);
        await sleep(
          Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 2) * 1000 : 250 * (attempt + 1),
        );
        continue;
      }
      const problem = parsed as Partial<Problem> | undefined;
      throw new ApiError(status, {
        type: problem?.type ?? 'about:blank',
        title: problem?.title ?? `HTTP ${status}`,
        status,
        detail: problem?.detail ?? `${method} ${path} answered ${status}`,
        ...(problem ?? {}),
      } as Problem);
    }
  }

  const game = (id: string) => `/games/${encodeURIComponent(id)}`;

  return {
    url: base,
    get token() {
      return token;
    },
    set token(value: string | undefined) {
      token = value;
    },
    get player() {
      return player;
    },
    /** Signs in at the local runtime's development issuer (POST /dev/tokens); the JWT is kept. */
    async signIn(name: string): Promise<void> {
      token = undefined;
      token = (await call<{ token: string }>('POST', '/dev/tokens', { player: name })).token;
      player = name;
    },
    /** POST /games; anonymous, keeps the new game's token for the calls that follow. */
    async createGame(body: NewGame = {}): Promise<CreatedGame> {
      // A creation takes a sign-in token or nothing: the last game's token opens no new one.
      if (player === undefined) token = undefined;
      const created = await call<CreatedGame>('POST', '/games', body);
      if (player === undefined) token = created.token;
      return created;
    },
    /** GET /me/stats: the signed-in player's record. */
    myStats: () => call<PlayerStats>('GET', '/me/stats'),
    /** GET /daily: today's date (the server's day), the day's standing, and the player's own when signed in. */
    daily: () => call<Daily>('GET', '/daily'),
    /**
     * POST /daily/games (signed in): the player's game on today's deal. The first call of the day
     * deals it (a CreatedGame, with its token); every later one answers the same game (a View).
     */
    playDaily: () => call<View | CreatedGame>('POST', '/daily/games'),
    /** One page of a day's leaderboard; `next` is the cursor of the page after. */
    leaderboard: (date: string, limit: number, cursor?: string) =>
      call<Leaderboard>(
        'GET',
        `/daily/${encodeURIComponent(date)}/leaderboard?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      ),
    /** GET /me/profile: the name the leaderboards show for the signed-in player. */
    profile: () => call<PlayerProfile>('GET', '/me/profile'),
    /** PUT /me/profile: the name the leaderboards show for the signed-in player. */
    setName: (name: string) => call<PlayerProfile>('PUT', '/me/profile', { name }),
    getGame: (id: string, at?: number) => call<View>('GET', game(id) + (at === undefined ? '' : `?at=${at}`)),
    // The writes to a game: `expected` is the version the player sees (see `call`).
    move: (id: string, move: Move, expected?: number) =>
      call<View>('POST', `${game(id)}/moves`, move, expected),
    undo: (id: string, expected?: number) => call<View>('POST', `${game(id)}/undo`, undefined, expected),
    redo: (id: string, expected?: number) => call<View>('POST', `${game(id)}/redo`, undefined, expected),
    resign: (id: string, expected?: number) => call<View>('POST', `${game(id)}/resign`, undefined, expected),
    /** GET /games/{id}/analysis: a finished game's deal, with every card known. */
    analysis: (id: string) => call<Analysis>('GET', `${game(id)}/analysis`),
    /** GET /games/{id}/hint: a next move from what the player can see, or none and why. */
    hint: (id: string) => call<Hint>('GET', `${game(id)}/hint`),
    /** POST /games/{id}/autoplay: every safe card home (the view unchanged when none is). */
    autoplay: (id: string, expected?: number) =>
      call<View>('POST', `${game(id)}/autoplay`, undefined, expected),
    /** POST /games/{id}/autocomplete: a provably won game played to the end, else refused. */
    autocomplete: (id: string, expected?: number) =>
      call<View>('POST', `${game(id)}/autocomplete`, undefined, expected),
    /** One page of GET /games/{id}/events. */
    eventsPage: (id: string, after = -1, limit = 1000) =>
      call<{ events: GameEvent[]; next: number | null }>(
        'GET',
        `${game(id)}/events?after=${after}&limit=${limit}`,
      ),
    /** The whole event log, every page. */
    async events(id: string): Promise<GameEvent[]> {
      const all: GameEvent[] = [];
      let after: number | null = -1;
      while (after !== null) {
        const page: { events: GameEvent[]; next: number | null } = await this.eventsPage(id, after);
        all.push(...page.events);
        after = page.next;
      }
      return all;
    },
    /** One page of GET /games/{id}/replay (at most 200 frames; `next` is where the rest starts). */
    replayPage: (id: string, from: number, to?: number) =>
      call<{ frames: Frame[]; next: number | null }>(
        'GET',
        `${game(id)}/replay?from=${from}${to === undefined ? '' : `&to=${to}`}`,
      ),
    /** POST /replays: plays a history from a deal, stores nothing. */
    checkReplay: (body: { seed?: number; deck?: string[] | string; rules?: unknown; moves: HistoryStep[] }) =>
      call<{ won: boolean; view: View }>('POST', '/replays', body),
  };
}
