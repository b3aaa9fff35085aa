/**
 * Errors as RFC 9457 problem details. Every error the API answers is one of these; handlers throw
 * `Problem`, and the wrapper in http/handler.ts turns it into an `application/problem+json` response.
 */
export const PROBLEM_TYPES = {
  'malformed-request': { status: 400, title: 'The request is malformed' },
  unauthenticated: { status: 401, title: 'A bearer token is required' },
  forbidden: { status: 403, title: 'The token does not open this game' },
  'not-found': { status: 404, title: 'Not found' },
  conflict: { status: 409, title: 'Another write won the race' },
  'precondition-failed': { status: 412, title: 'The game is not at the version in If-Match' },
  'request-timeout': { status: 408, title: 'The request took too long to arrive' },
  'payload-too-large': { status: 413, title: 'The request body is too large' },
  'illegal-move': { status: 422, title: 'The move breaks a rule of the game' },
  'idempotency-key-reused': { status: 422, title: 'The Idempotency-Key was used for another request' },
  'not-winnable': { status: 422, title: 'The game cannot be proved winnable from here' },
  'game-in-play': { status: 422, title: 'The game is still in play' },
  'daily-in-progress': { status: 422, title: "The day's deal is still in play" },
  throttled: { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal error' },
  busy: { status: 503, title: 'The request ran out of its own time; retry' },
  starting: { status: 503, title: 'The service is starting; retry' },
  'store-unavailable': { status: 503, title: 'The game store is unavailable; retry later' },
  'sign-in-unavailable': { status: 503, title: "The sign-in issuer's keys could not be fetched; retry" },
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** Seconds a client should wait after a store fault. */
export const RETRY_AFTER_SECONDS = 1;

/** Problem types are URIs relative to the API: `/problems/<name>`, listed in docs/api.md. */
export const problemUri = (type: ProblemType): string => `/problems/${type}`;

export class Problem extends Error {
  readonly status: number;
  constructor(
    readonly type: ProblemType,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = PROBLEM_TYPES[type].status;
    // A problem about a game names its version, and like every answer about a game carries it as
    // ETag (docs/api.md).
    const version = extra.currentVersion;
    if (typeof version === 'number' && this.headers.etag === undefined) {
      this.headers = { ...this.headers, etag: `"${version}"` };
    }
  }

  /** What a problem is, as plain data: kept as a first answer, and given again from it. */
  toRecord(): Record<string, unknown> {
    return { type: this.type, detail: this.detail, extra: this.extra, headers: this.headers };
  }

  static fromRecord(
    record: Readonly<Record<string, unknown>>,
    headers: Record<string, string> = {},
  ): Problem {
    return new Problem(
      record.type as ProblemType,
      record.detail as string,
      record.extra as Record<string, unknown>,
      { ...(record.headers as Record<string, string>), ...headers },
    );
  }

  body(): Record<string, unknown> {
    return {
      type: problemUri(this.type),
      title: PROBLEM_TYPES[this.type].title,
      status: this.status,
      detail: this.detail,
      ...this.extra,
    };
  }
}

/**
 * 503 for a request that ran out of its own time (the solver's CPU, or its place in a queue): not
 * the store's fault, and a retry may well be answered.
 */
export const busy = (detail: string): Problem =>
  new Problem('busy', detail, {}, { 'retry-after': String(RETRY_AFTER_SECONDS) });

/**
 * 422 for an Idempotency-Key sent again with another request. The key is not said: a creation's is
 * as secret as the token it gives back, and an error body may be logged on its way.
 */
export const keyReused = (where = '', extra: Record<string, unknown> = {}): Problem =>
  new Problem('idempotency-key-reused', `This Idempotency-Key was used for another request${where}.`, extra);

/** 503 for a store that is throttled, slow or unreachable (or what went wrong with it, in `detail`). */
export const storeUnavailable = (
  detail = 'The game store is throttled or not answering. A write may still land: retry with the same Idempotency-Key.',
): Problem => new Problem('store-unavailable', detail, {}, { 'retry-after': String(RETRY_AFTER_SECONDS) });
