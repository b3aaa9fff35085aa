import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Problem } from './problem.js';

export type Response = APIGatewayProxyStructuredResultV2 & { statusCode: number };

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): Response {
  return { statusCode, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(body) };
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

export function problemResponse(problem: Problem): Response {
  return {
    statusCode: problem.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...problem.headers },
    body: JSON.stringify(problem.body()),
  };
}
