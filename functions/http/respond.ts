import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Problem } from './problem.js';

export type Response = APIGatewayProxyStructuredResultV2 & { statusCode: number };

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * On every answer of the API: kept by no cache (an answer may carry a game's token, a player's
 * games, a game in play), and read as the type it says.
 */
export const ANSWER_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): Response {
  return {
    statusCode,
    headers: { 'content-type': JSON_TYPE, ...ANSWER_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

/** The ETag of a game at a version: the version, quoted. */
export const etag = (version: number): string => `"${version}"`;

/** A response about a game: its version travels as ETag. */
export const gameJson = (
  statusCode: number,
  body: unknown,
  version: number,
  headers: Record<string, string> = {},
) => json(statusCode, body, { etag: etag(version), ...headers });

/** No error body is larger than this, whatever the request was (docs/api.md, Errors). */
export const ERROR_BODY_LIMIT = 16 * 1024;
const LONGEST_TEXT = 1_000;

const clip = (value: unknown): unknown =>
  typeof value === 'string' && value.length > LONGEST_TEXT ? `${value.slice(0, LONGEST_TEXT)}...` : value;

/**
 * A problem's body within ERROR_BODY_LIMIT: long texts are clipped, and a long `issues` list keeps
 * its first entries, with `issueCount` saying how many there were.
 */
function problemBody(problem: Problem): string {
  const body = problem.body();
  const whole = JSON.stringify(body);
  if (Buffer.byteLength(whole) <= ERROR_BODY_LIMIT) return whole;
  const issues = Array.isArray(body.issues) ? (body.issues as Record<string, unknown>[]) : [];
  const clipped: Record<string, unknown> = Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, name === 'issues' ? [] : clip(value)]),
  );
  if (issues.length > 0) clipped.issueCount = issues.length;
  let size = Buffer.byteLength(JSON.stringify(clipped));
  const kept = clipped.issues as unknown[] | undefined;
  for (const issue of issues) {
    const entry = Object.fromEntries(Object.entries(issue).map(([name, value]) => [name, clip(value)]));
    size += Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (size > ERROR_BODY_LIMIT || !kept) break;
    kept.push(entry);
  }
  const text = JSON.stringify(clipped);
  return Buffer.byteLength(text) <= ERROR_BODY_LIMIT
    ? text
    : JSON.stringify({ type: body.type, title: body.title, status: body.status, detail: clip(body.detail) });
}

export function problemResponse(problem: Problem): Response {
  return {
    statusCode: problem.status,
    headers: {
      'content-type': 'application/problem+json; charset=utf-8',
      ...ANSWER_HEADERS,
      ...problem.headers,
    },
    body: problemBody(problem),
  };
}
