import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';

/**
 * The store is throttled, slow or unreachable: nothing may be assumed written or not. The HTTP
 * layer answers 503 with Retry-After (a write may still land: a client retries with its key).
 */
export class StoreUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super('the store is throttled, slow or unreachable');
  }
}

/**
 * Whether an error from the SDK means the store is throttled, slow or unreachable: the SDK's own
 * classifiers of the errors it retries, the abort of a call that ran out of time, and a table that
 * is not there (an operator deleted it: nothing a client sent, and nothing to answer but 503).
 */
export function isStoreFault(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const sdkError = error as Parameters<typeof isTransientError>[0];
  return (
    (error as Error).name === 'AbortError' ||
    (error as Error).name === 'ResourceNotFoundException' ||
    isThrottlingError(sdkError) ||
    isTransientError(sdkError) ||
    isServerError(sdkError)
  );
}

/** Runs a store call, turning throttling, timeouts and outages into StoreUnavailable. */
export async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStoreFault(error)) throw new StoreUnavailable(error);
    throw error;
  }
}
