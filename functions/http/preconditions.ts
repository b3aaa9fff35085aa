import { createHash } from 'node:crypto';
import { Problem } from './problem.js';
import type { Request } from './request.js';
import { etag } from './respond.js';

/** The version a write is conditional on (`If-Match: "<version>"`), or undefined when there is none. */
export function ifMatch(request: Request): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(header);
  if (!match) {
    throw new Problem(
      'malformed-request',
      `If-Match must be a version in quotes, as sent in ETag (for example "3"): got ${JSON.stringify(header)}.`,
    );
  }
  return Number(match[1]);
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

export const preconditionFailed = (currentVersion: number, expected: number): Problem =>
  new Problem(
    'precondition-failed',
    `If-Match asked for version ${expected}, but the game is at version ${currentVersion}. Nothing was written.`,
    { currentVersion },
    { etag: etag(currentVersion) },
  );
