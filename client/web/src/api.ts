/**
 * The page's client of the HTTP API: openapi-fetch over the types generated from /openapi.json
 * (client/openapi.d.ts), on the page's own origin (`npm start` and the CloudFront distribution
 * both serve the API beside the page). Every failure becomes an ApiError whose message is the
 * API's own words (the problem's `detail`), or a line saying the API could not be reached.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../openapi.js';
import type {
  CreatedGame,
  Frame,
  GameStatus,
  Hint,
  Move,
  MyGames,
  NewGame,
  PlayerStats,
  Problem,
  View,
} from '../../types.js';
import { session } from './session.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem>,
  ) {
    super(problemMessage(status, problem));
    this.name = 'ApiError';
  }
}

/** The detail, and the first schema issue when the request was malformed. */
function problemMessage(status: number, problem: Partial<Problem>): string {
  const issue = problem.issues?.[0];
  const detail = problem.detail || problem.title || `The API answered ${status}.`;
  return issue ? `${detail} (${issue.path ? `${issue.path}: ` : ''}${issue.message})` : detail;
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
      throw new ApiError(0, {
        detail: `Cannot reach the Klondike API at ${location.origin}. Is it running?`,
      });
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
    if (response.status === 401 && signedIn) session.refused(refused.message);
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
};
