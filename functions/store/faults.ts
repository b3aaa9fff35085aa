import { Problem } from '../http/problem.js';

const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'LimitExceededException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
]);

const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** Seconds a client should wait after a store fault. */
export const RETRY_AFTER_SECONDS = 1;

/** Whether an error from the SDK means the store is throttled, slow or unreachable. */
export function isStoreFault(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $metadata, $retryable } = error as {
    name?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
    $retryable?: unknown;
  };
  if (name && UNAVAILABLE.has(name)) return true;
  if (code && NETWORK.has(code)) return true;
  if ($retryable) return true;
  return ($metadata?.httpStatusCode ?? 0) >= 500;
}

export const storeUnavailable = (): Problem =>
  new Problem(
    'store-unavailable',
    'The game store is throttled or unreachable. Nothing was written; retry after a moment.',
    {},
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/** Runs a store call, turning throttling, timeouts and outages into a 503 problem. */
export async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStoreFault(error)) throw storeUnavailable();
    throw error;
  }
}
