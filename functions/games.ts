import {
  EVENT_SCHEMA,
  fold,
  type GameState,
  type GameView,
  RULES,
  toView,
  type Violation,
} from '../domain/index.js';
import { dailySecret } from './dailyDay.js';
import { authorize, signedIn } from './http/auth.js';
import { REPLAYED } from './http/preconditions.js';
import { Problem } from './http/problem.js';
import type { Request } from './http/request.js';
import { etag, gameJson, type Response } from './http/respond.js';
import { GAME_ID } from './requestSchemas.js';
import type { Creation } from './store/creations.js';
import { type Loaded, loadGame, type StoredEvent } from './store/events.js';

export const notFound = (id: string) => new Problem('not-found', `There is no game ${JSON.stringify(id)}.`);

/** The game id of a request's path; one that no game could have is an unknown game, 404 like any. */
export function gameIdOf(request: Request): string {
  const id = request.pathParameters.id;
  if (id === undefined || !GAME_ID.test(id)) {
    throw new Problem(
      'not-found',
      'There is no game with that id (a game id is 1 to 64 letters, digits and -).',
    );
  }
  return id;
}

/** 404 for a version the game has not reached. */
export const versionNotReached = (latest: number, asked: number) =>
  new Problem('not-found', `The game is at version ${latest}; there is no version ${asked} yet.`, {
    currentVersion: latest,
  });

export async function loadOrNotFound(id: string, upTo?: number): Promise<Loaded> {
  const loaded = await loadGame(id, upTo);
  if (!loaded) throw notFound(id);
  return loaded;
}

/** A 422 for a broken rule. About a stored game, it carries the game's version (and ETag). */
export function illegal(
  violation: Violation,
  extra: Record<string, unknown> = {},
  version?: number,
): Problem {
  return new Problem(
    'illegal-move',
    violation.detail,
    {
      rule: violation.rule,
      ruleText: RULES[violation.rule],
      ...(version === undefined ? {} : { currentVersion: version }),
      ...extra,
    },
    version === undefined ? {} : { etag: etag(version) },
  );
}

/**
 * The view a client is shown: the whole deal once the game is over, but a daily game's only once
 * its day is over too (nobody sees the day's deal before then, not even who finished it).
 */
export const viewOf = (state: GameState, id: string): GameView =>
  toView(state, id, state.status !== 'playing' && !dailySecret(state));

/** A game as a GET route reads it. */
export interface GameRead {
  readonly id: string;
  readonly loaded: Loaded;
  /** Whether the whole deal may be shown: only once the game is won or resigned (and a daily game's day over). */
  readonly reveal: boolean;
}

/**
 * The read flow of every GET route under /games/{id}: the path checked, the game loaded at its
 * latest version, and the token checked while it is in play or a daily game's day lasts (a finished
 * game is public, though a sign-in token sent to it must verify).
 */
export async function readGame(request: Request): Promise<GameRead> {
  const id = gameIdOf(request);
  const loaded = await loadOrNotFound(id);
  const reveal = loaded.state.status !== 'playing' && !dailySecret(loaded.state);
  if (!reveal) await authorize(request, loaded);
  // Public, but a sign-in token sent along is checked like anywhere else: one that does not verify
  // is 401 (an expired sign-in is said at once, not at the next game in play).
  else await signedIn(request);
  return { id, loaded, reveal };
}

/** An event in the shape the API shows: `{ version, type, schema, at, data }`. */
export const eventJson = (stored: StoredEvent, shown: { readonly type: string; readonly data: unknown }) => ({
  version: stored.version,
  type: shown.type,
  schema: EVENT_SCHEMA,
  at: stored.at,
  data: shown.data,
});

/** The answer to a creation: 201 with the new game's view, its token (shown here only) and Location. */
export const createdAnswer = (creation: Creation, replayed: boolean): Response =>
  gameJson(201, { ...viewOf(fold([creation.dealt]), creation.gameId), token: creation.token }, 0, {
    location: `/games/${creation.gameId}`,
    ...(replayed ? REPLAYED : {}),
  });
