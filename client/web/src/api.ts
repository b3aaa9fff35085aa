/**
 * The page's client of the HTTP API: openapi-fetch over the types generated from /openapi.json
 * (client/openapi.d.ts), on the page's own origin (`npm start` and the CloudFront distribution
 * both serve the API beside the page). Every failure becomes an ApiError that keeps the problem
 * (its `type` and `rule`) and whose message is a player's sentence for it (words.ts); callers that
 * know more (the move refused, the cards on the table) word it again with `problemWords`.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../openapi.js';
import type {
  Analysis,
  CreatedGame,
  Daily,
  Frame,
  GameEvent,
  GameStatus,
  Hint,
  Leaderboard,
  Move,
  MyGames,
  NewGame,
  PlayedMove,
  PlayerProfile,
  PlayerStats,
  Problem,
  Rules,
  View,
} from '../../types.js';
import { session } from './session.js';
import { problemWords } from './words.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem>,
  ) {
    super(problemWords(status, problem));
    this.name = 'ApiError';
  }
}

/**
 * A busy server (503: its solver or store out of time; 429: throttled) or a lost connection (0),
 * still so after `call`'s own retries: asking again a while later may succeed.
 */
export const isPassing = (failure: unknown): boolean =>
  failure instanceof ApiError && [0, 429, 503].includes(failure.status);

/** A failure in a player's words: an ApiError worded for what was being done, anything else as a fault of the page. */
export function failureWords(failure: unknown, doing?: 'name' | 'day' | 'replay'): string {
  if (failure instanceof ApiError) return problemWords(failure.status, failure.problem, { doing });
  console.error(failure);
  return 'Something went wrong on this page. Reload it to go on.';
}

/** 22 or more random characters: POST /games refuses shorter keys, since a replay returns the token. */
function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

const RETRIED = new Set([409, 429, 503]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const client = createClient<paths>({ baseUrl: location.origin });

type Answer<T> = { data?: T; error?: unknown; response: Response };

interface Sent {
  /** The bearer the request carries: a game's token or the player's sign-in token. */
  readonly bearer?: string | undefined;
  /** A write: a player's game it changes shows up in their read models a moment later. */
  readonly write?: boolean;
}

/**
 * One request, tried again (with the same Idempotency-Key, so a write lands once) after a lost
 * race, throttling or an unavailable store, as Retry-After says (at most 2 s). A 401 to the
 * player's sign-in token (expired, or from a key the issuer no longer has) signs them out.
 */
async function call<T>(request: (key: string) => Promise<Answer<T>>, sent: Sent = {}): Promise<T> {
  const key = idempotencyKey();
  for (let attempt = 0; ; attempt++) {
    let answer: Answer<T>;
    try {
      answer = await request(key);
    } catch {
      throw new ApiError(0, {});
    }
    const { data, error, response } = answer;
    const signedIn = sent.bearer !== undefined && sent.bearer === session.get().player?.token;
    if (response.ok && data !== undefined) {
      if (signedIn && sent.write) session.wrote();
      return data;
    }
    if (RETRIED.has(response.status) && attempt < 2) {
      const seconds = Number(response.headers.get('retry-after'));
      await sleep(
        Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 2) * 1000 : 250 * (attempt + 1),
      );
      continue;
    }
    const refused = new ApiError(
      response.status,
      typeof error === 'object' && error ? (error as Partial<Problem>) : {},
    );
    if (response.status === 401 && signedIn) session.refused();
    throw refused;
  }
}

const auth = (token: string | undefined) => (token ? { authorization: `Bearer ${token}` } : {});
/** Writes name the version the table shows: a move made on a stale table (another tab) is 412. */
const ifMatch = (version: number | undefined) =>
  version === undefined ? {} : { 'If-Match': `"${version}"` };

/** The writes that take no body, by the last segment of their path. */
export type Action = 'undo' | 'redo' | 'resign' | 'autoplay' | 'autocomplete';

export const api = {
  /** With the player's sign-in token the game is theirs. */
  createGame: (body: NewGame, jwt?: string): Promise<CreatedGame> =>
    call(
      (key) =>
        client.POST('/games', { body, params: { header: { 'Idempotency-Key': key } }, headers: auth(jwt) }),
      { bearer: jwt, write: true },
    ),

  getGame: (id: string, token: string | undefined, at?: number): Promise<View> =>
    call(
      () =>
        client.GET('/games/{id}', {
          params: { path: { id }, ...(at === undefined ? {} : { query: { at } }) },
          headers: auth(token),
        }),
      { bearer: token },
    ),

  move: (id: string, token: string | undefined, move: Move, version?: number): Promise<View> =>
    call(
      (key) =>
        client.POST('/games/{id}/moves', {
          params: { path: { id }, header: { 'Idempotency-Key': key, ...ifMatch(version) } },
          body: move,
          headers: auth(token),
        }),
      { bearer: token, write: true },
    ),

  act: (action: Action, id: string, token: string | undefined, version?: number): Promise<View> =>
    call(
      (key) =>
        client.POST(`/games/{id}/${action}`, {
          params: { path: { id }, header: { 'Idempotency-Key': key, ...ifMatch(version) } },
          headers: auth(token),
        }),
      { bearer: token, write: true },
    ),

  hint: (id: string, token: string | undefined): Promise<Hint> =>
    call(() => client.GET('/games/{id}/hint', { params: { path: { id } }, headers: auth(token) }), {
      bearer: token,
    }),

  /** GET /games/{id}/analysis: a finished game's deal, solved with every card known. */
  analysis: (id: string, token: string | undefined): Promise<Analysis> =>
    call(() => client.GET('/games/{id}/analysis', { params: { path: { id } }, headers: auth(token) }), {
      bearer: token,
    }),

  /**
   * The time of one event of the log (version `at`), and how far this browser's clock is ahead of
   * the server's (from the answer's Date header), so that a clock shown here counts the log's time.
   */
  async eventTime(id: string, token: string | undefined, at: number): Promise<{ at: number; skew: number }> {
    let skew = 0;
    const page = await call<{ events: GameEvent[] }>(
      async () => {
        const answer = await client.GET('/games/{id}/events', {
          params: { path: { id }, query: { after: at - 1, limit: 1 } },
          headers: auth(token),
        });
        const date = Date.parse(answer.response.headers.get('date') ?? '');
        if (Number.isFinite(date)) skew = Date.now() - date;
        return answer;
      },
      { bearer: token },
    );
    const event = page.events[0];
    if (!event) throw new ApiError(404, {});
    return { at: Date.parse(event.at), skew };
  },

  /** POST /replays: the view after `moves` from a deal, every card shown. Nothing is stored. */
  playFrom: (deck: string[], rules: Rules, moves: PlayedMove[]): Promise<View> =>
    call(() => client.POST('/replays', { body: { deck, rules, moves } })).then((answer) => answer.view),

  /** One page of frames (the API gives at most 200 a response; `next` is where the rest starts). */
  replay: (id: string, token: string | undefined, from: number, to: number) =>
    call<{ frames: Frame[]; next: number | null }>(
      () =>
        client.GET('/games/{id}/replay', {
          params: { path: { id }, query: { from, to } },
          headers: auth(token),
        }),
      { bearer: token },
    ),

  /** One page of the player's games, newest first; `next` is the cursor of the page after. */
  myGames: (jwt: string, query: { status?: GameStatus; limit: number; cursor?: string }): Promise<MyGames> =>
    call(() => client.GET('/me/games', { params: { query }, headers: auth(jwt) }), { bearer: jwt }),

  myStats: (jwt: string): Promise<PlayerStats> =>
    call(() => client.GET('/me/stats', { headers: auth(jwt) }), { bearer: jwt }),

  /** GET /daily: today's date (the server's day, not this browser's) and standing; `me` with a sign-in. */
  daily: (jwt: string | undefined): Promise<Daily> =>
    call(() => client.GET('/daily', { headers: auth(jwt) }), { bearer: jwt }),

  /**
   * POST /daily/games: the player's game on today's deal. The first call of the day deals it (with
   * its token); every later one answers the same game, which their sign-in token opens.
   */
  playDaily: (jwt: string): Promise<View> =>
    call(
      (key) =>
        client.POST('/daily/games', { params: { header: { 'Idempotency-Key': key } }, headers: auth(jwt) }),
      { bearer: jwt, write: true },
    ),

  /** One page of a day's leaderboard (public); `next` is the cursor of the page after. */
  leaderboard: (date: string, query: { limit: number; cursor?: string }): Promise<Leaderboard> =>
    call(() => client.GET('/daily/{date}/leaderboard', { params: { path: { date }, query } })),

  profile: (jwt: string): Promise<PlayerProfile> =>
    call(() => client.GET('/me/profile', { headers: auth(jwt) }), { bearer: jwt }),

  /** PUT /me/profile: the name the leaderboards show (the server checks it). A PUT: retried as it is. */
  setName: (jwt: string, name: string): Promise<PlayerProfile> =>
    call(() => client.PUT('/me/profile', { body: { name }, headers: auth(jwt) }), {
      bearer: jwt,
      write: true,
    }),
};
