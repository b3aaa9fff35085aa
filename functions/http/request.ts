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

/** zod/mini's message for every issue it was given no words for (it carries no locale). */
const NO_WORDS = 'Invalid input';

const listed = (values: readonly unknown[]): string =>
  values.map((value) => JSON.stringify(value)).join(' or ');
const UNITS: Record<string, string> = { string: ' characters', array: ' items' };
const TYPES: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

/** What an issue asks for, in words: zod/mini's own message is "Invalid input" for all but a few. */
function issueWords(issue: z.core.$ZodIssue): string {
  if (issue.message !== NO_WORDS) return issue.message;
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      // z.int()'s own bound, beside the field's: JSON numbers beyond 2^53 are not whole numbers here.
      if (issue.origin === 'int') return 'must be a whole number from -(2^53 - 1) to 2^53 - 1';
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const unit = UNITS[issue.origin] ?? '';
      if ((issue as { exact?: boolean }).exact) return `must have exactly ${bound}${unit}`;
      if (!issue.inclusive)
        return `must be ${issue.code === 'too_small' ? 'more' : 'less'} than ${bound}${unit}`;
      return `must be ${issue.code === 'too_small' ? 'at least' : 'at most'} ${bound}${unit}`;
    }
    case 'invalid_type':
      return `must be ${TYPES[issue.expected] ?? `of type ${issue.expected}`}`;
    case 'invalid_value':
      return `must be ${listed(issue.values)}`;
    case 'invalid_union': {
      const options = (issue as { options?: readonly unknown[] }).options;
      if (options) return `must be ${listed(options)}`;
      // A union of constants (the rules' draw: 1 or 3) lists them.
      const values = issue.errors
        .flat()
        .flatMap((inner) => (inner.code === 'invalid_value' ? inner.values : [NO_WORDS]));
      return values.includes(NO_WORDS)
        ? 'fits none of the forms this field takes'
        : `must be ${listed(values)}`;
    }
    case 'unrecognized_keys':
      return `has no field ${listed(issue.keys)}`;
    case 'invalid_format':
      return `must match ${issue.format === 'regex' ? (issue as { pattern?: string }).pattern : issue.format}`;
    default:
      return 'is not what this field takes';
  }
}

/** A zod failure, in words: each issue with the path it is about (once, however often zod found it). */
export function describeIssues(error: z.core.$ZodError): {
  detail: string;
  issues: { path: string; message: string }[];
} {
  const said = new Map<string, { path: string; message: string }>();
  for (const issue of error.issues) {
    const path = issue.path.length ? issue.path.join('.') : '(root)';
    const message = issueWords(issue);
    said.set(`${path}\n${message}`, { path, message });
  }
  const issues = [...said.values()];
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
