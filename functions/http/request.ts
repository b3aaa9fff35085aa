import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod/mini';
import { Problem } from './problem.js';

/** What a handler needs of an API Gateway (payload 2.0) request, already checked. */
export interface Request {
  readonly method: string;
  readonly path: string;
  readonly requestId: string;
  /** Lower-cased names, as API Gateway delivers them. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly pathParameters: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  /** The raw body text ('' when there is none). */
  readonly body: string;
}

/** 413: a body over the route's limit (its size, when it is known). */
export const payloadTooLarge = (limit: number, size?: number): Problem =>
  new Problem(
    'payload-too-large',
    `The body is ${size === undefined ? 'over the limit' : `${size} bytes`}; this route takes at most ${limit} bytes.`,
    { limit },
  );

export function toRequest(event: APIGatewayProxyEventV2, bodyLimit: number): Request {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > bodyLimit) throw payloadTooLarge(bodyLimit, bytes.length);
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value;
  return {
    method: event.requestContext?.http?.method ?? 'GET',
    path: event.rawPath ?? event.requestContext?.http?.path ?? '/',
    requestId: event.requestContext?.requestId ?? 'local',
    headers,
    pathParameters: event.pathParameters ?? {},
    query: event.queryStringParameters ?? {},
    body: bytes.toString('utf8'),
  };
}

/** Issues named in a 400's detail; the `issues` list holds more, up to the error body's limit. */
const ISSUES_IN_DETAIL = 5;

/** A zod failure, in words: each issue with the path it is about. */
export function describeIssues(error: z.core.$ZodError): {
  detail: string;
  issues: { path: string; message: string }[];
} {
  const issues = error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.join('.') : '(root)',
    message: issue.message,
  }));
  const named = issues.slice(0, ISSUES_IN_DETAIL).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length - named.length;
  return { detail: named.join('; ') + (more > 0 ? `; and ${more} more` : ''), issues };
}

/** Parses a JSON body against its schema: 400 for malformed JSON or a body that fails the schema. */
export function parseBody<T extends z.ZodMiniType>(
  request: Request,
  schema: T,
  emptyAs?: unknown,
): z.infer<T> {
  // The body is read as JSON whatever its Content-Type, so `curl -d` works as written.
  if (request.body.trim() === '' && emptyAs !== undefined) return schema.parse(emptyAs);
  let json: unknown;
  try {
    json = JSON.parse(request.body);
  } catch (error) {
    throw new Problem('malformed-request', `The body is not valid JSON: ${(error as Error).message}`);
  }
  return parseWith(schema, json, 'body');
}

/** Checks a value (path parameters, query, body) against its schema: 400 with the issues on failure. */
export function parseWith<T extends z.ZodMiniType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const { detail, issues } = describeIssues(result.error);
    throw new Problem('malformed-request', `The ${what} does not fit the schema: ${detail}`, { issues });
  }
  return result.data;
}
