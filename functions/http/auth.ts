import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** 401 without a bearer token, 403 with one whose hash is not the game's (compared in constant time). */
export function authorize(request: Request, tokenHash: string): void {
  const token = bearerToken(request);
  if (token === undefined) {
    throw new Problem(
      'unauthenticated',
      'Send the token that POST /games returned, as Authorization: Bearer <token>.',
      {},
      { 'www-authenticate': 'Bearer realm="klondike"' },
    );
  }
  const given = Buffer.from(hashToken(token), 'hex');
  const expected = Buffer.from(tokenHash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Problem('forbidden', 'This token does not open this game.');
  }
}
