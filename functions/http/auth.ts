import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { looksLikeJwt, playerOf } from './identity.js';
import { Problem } from './problem.js';
import type { Request } from './request.js';

/** A new game's token: 256 random bits, base64url. Only its hash is ever stored. */
export const newToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The bearer token of a request, if it has one. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

const noBearer = () =>
  new Problem(
    'unauthenticated',
    'Send the token that POST /games returned, or a sign-in token, as Authorization: Bearer <token>.',
    {},
    { 'www-authenticate': 'Bearer realm="klondike"' },
  );

/**
 * 401 at once for a write on a game without a bearer token, before its body or headers are read:
 * whatever else is wrong with the request, it needs a token first.
 */
export function requireBearer(request: Request): void {
  if (bearerToken(request) === undefined) throw noBearer();
}

/** Who may open a game: the holder of its token, and the player who created it signed in. */
export interface Keyholders {
  readonly tokenHash: string;
  readonly owner?: string | undefined;
}

/**
 * 401 without a bearer token (or with a JWT that does not verify), 403 with a game token whose hash
 * is not the game's (compared in constant time) or with another player's JWT.
 */
export async function authorize(request: Request, game: Keyholders): Promise<void> {
  const bearer = bearerToken(request);
  if (bearer === undefined) throw noBearer();
  if (looksLikeJwt(bearer)) {
    const player = await playerOf(bearer);
    if (game.owner === player) return;
    throw new Problem(
      'forbidden',
      game.owner === undefined
        ? 'This game was created without signing in: open it with its token.'
        : 'This game belongs to another player.',
    );
  }
  const given = Buffer.from(hashToken(bearer), 'hex');
  const expected = Buffer.from(game.tokenHash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Problem('forbidden', 'This token does not open this game.');
  }
}

/** The signed-in player of a request whose bearer is a JWT; undefined without one (401 for a bad one). */
export async function signedIn(request: Request): Promise<string | undefined> {
  const bearer = bearerToken(request);
  return bearer !== undefined && looksLikeJwt(bearer) ? playerOf(bearer) : undefined;
}

/**
 * The player creating a game: none without an Authorization header, the signed-in player with a
 * sign-in token; anything else is 401, since no game token opens a creation (a client that sent one
 * meant to sign in, and must not get an anonymous game it did not ask for).
 */
export async function creator(request: Request): Promise<string | undefined> {
  if (request.headers.authorization === undefined) return undefined;
  const bearer = bearerToken(request);
  if (bearer === undefined || !looksLikeJwt(bearer)) {
    throw new Problem(
      'unauthenticated',
      'A new game takes no game token: send a sign-in token (a JWT) as Authorization: Bearer <token>, or no Authorization at all.',
      {},
      { 'www-authenticate': 'Bearer realm="klondike", error="invalid_token"' },
    );
  }
  return playerOf(bearer);
}

/** The signed-in player: a route for players only answers 401 without a sign-in token. */
export async function player(request: Request): Promise<string> {
  const signed = await signedIn(request);
  if (signed === undefined) {
    throw new Problem(
      'unauthenticated',
      'Sign in first: send your sign-in token (a JWT) as Authorization: Bearer <token>.',
      {},
      { 'www-authenticate': 'Bearer realm="klondike"' },
    );
  }
  return signed;
}
