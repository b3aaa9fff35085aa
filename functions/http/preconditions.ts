import { createHash } from 'node:crypto';
import { Problem } from './problem.js';
import type { Request } from './request.js';
import { etag } from './respond.js';

/** The header that marks an answer given again for a repeated Idempotency-Key. */
export const REPLAYED = { 'idempotent-replayed': 'true' } as const;

/** What `If-Match` asks of a game's version; absent when the request has no If-Match. */
export interface Precondition {
  /** The header as sent, for the 412's message. */
  readonly header: string;
  matches(version: number): boolean;
}

/** An entity tag (RFC 9110 section 8.8.3): optional `W/`, then an opaque tag in quotes. */
const TAG = String.raw`(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"`;
/**
 * A list of them, separated by commas; empty elements are allowed (RFC 9110 section 5.6.1), so a
 * list may hold none (an empty value, or commas only): it matches no version.
 */
const TAG_LIST = new RegExp(String.raw`^[\s,]*(?:${TAG}(?:\s*,[\s,]*${TAG})*)?[\s,]*$`);

/**
 * `If-Match` (RFC 9110 section 13.1.1): `*` matches any existing game; otherwise a list of entity
 * tags, compared strongly with the game's `"<version>"`, so a weak tag (`W/"3"`) matches nothing.
 * A header that is neither is 400.
 */
export function ifMatch(request: Request): Precondition | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  if (header.trim() === '*') return { header, matches: () => true };
  if (!TAG_LIST.test(header)) {
    throw new Problem(
      'malformed-request',
      'If-Match must be * or a list of entity tags, as sent in ETag (for example "3", or "2", "3").',
    );
  }
  const strong = new Set<string>();
  for (const [, weak, opaque] of header.matchAll(new RegExp(TAG, 'g'))) if (!weak) strong.add(opaque!);
  return { header, matches: (version) => strong.has(String(version)) };
}

/** The request's Idempotency-Key: 1..64 visible ASCII characters. */
export function idempotencyKey(request: Request): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,64}$/.test(key)) {
    throw new Problem('malformed-request', 'Idempotency-Key must be 1 to 64 visible ASCII characters.');
  }
  return key;
}

/** What makes two requests "the same" for an Idempotency-Key: the route and the validated body. */
export const fingerprint = (route: string, body: unknown): string =>
  createHash('sha256')
    .update(`${route}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');

/** 412: the game is not at a version the request's If-Match names. */
export function preconditionFailed(currentVersion: number, precondition: Precondition): Problem {
  const sent = precondition.header.trim();
  const named = /^[\s,]*$/.test(sent) ? 'with no entity tag' : sent.length <= 100 ? sent : 'as sent';
  return new Problem(
    'precondition-failed',
    `If-Match ${named} does not match the game's version ${currentVersion} (ETag ${etag(currentVersion)}). Nothing was written.`,
    { currentVersion },
    { etag: etag(currentVersion) },
  );
}
