import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENDPOINT_ENV, TABLE_ENV } from '../routes.js';
import { timeLimit } from '../timeScale.js';
import { guard, StoreUnavailable } from './faults.js';

/**
 * Time a store call may take in all, retries included: a request that the store does not answer is
 * answered 503 within about 3 s (docs/api.md), far inside the functions' 10 s timeout. These
 * three limits are scaled by KLONDIKE_TIME_SCALE (../timeScale.ts).
 */
export const STORE_CALL_MS = 2_500;
/**
 * Time the store may take in all for one request, every call and retry included: a request makes
 * several calls (a load, a key's first answer, a put per event, a lost race's reload), and a store
 * that answers each just inside STORE_CALL_MS must not keep it waiting for their sum.
 */
export const STORE_REQUEST_MS = 2_500;
/** One attempt: DynamoDB answers in milliseconds, so a second without an answer is worth a retry. */
const ATTEMPT_MS = 1_000;

let shared: { endpoint: string | undefined; attemptMs: number; client: DynamoDBDocumentClient } | undefined;

/**
 * One document client per Lambda container, made on first use (and again if the endpoint or the
 * attempt's limit changes: a process that runs one local runtime after another). `requestTimeout` only warns unless
 * `throwOnRequestTimeout` is set (in the installed @smithy/node-http-handler), so both are set.
 */
export function documentClient(): DynamoDBDocumentClient {
  const endpoint = process.env[ENDPOINT_ENV];
  const attemptMs = timeLimit(ATTEMPT_MS);
  if (!shared || shared.endpoint !== endpoint || shared.attemptMs !== attemptMs) {
    shared?.client.destroy();
    const client = new DynamoDBClient({
      maxAttempts: 3,
      requestHandler: {
        connectionTimeout: attemptMs,
        requestTimeout: attemptMs,
        throwOnRequestTimeout: true,
      },
      ...(endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION || 'local',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {}),
    });
    shared = {
      endpoint,
      attemptMs,
      client: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    };
  }
  return shared.client;
}

/** The store time a request has spent so far (none outside a request: the projector, scripts). */
const budgets = new AsyncLocalStorage<{ spent: number }>();

/** Runs a request's work with its own store budget of STORE_REQUEST_MS (functions/http/handler.ts). */
export const withStoreBudget = <T>(run: () => Promise<T>): Promise<T> => budgets.run({ spent: 0 }, run);

/**
 * Runs one store call within STORE_CALL_MS (every attempt of it, the SDK's retries included), and
 * within what is left of the request's STORE_REQUEST_MS, with throttling, timeouts and outages
 * turned into StoreUnavailable.
 */
export async function storeCall<T>(
  call: (client: DynamoDBDocumentClient, abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  const budget = budgets.getStore();
  const callMs = timeLimit(STORE_CALL_MS);
  // Whole milliseconds: AbortSignal.timeout takes nothing else.
  const left =
    budget === undefined ? callMs : Math.min(callMs, Math.floor(timeLimit(STORE_REQUEST_MS) - budget.spent));
  if (left <= 0) throw new StoreUnavailable(new Error('the request has spent its time on the store'));
  const started = performance.now();
  try {
    return await guard(() => call(documentClient(), AbortSignal.timeout(left)));
  } finally {
    if (budget) budget.spent += performance.now() - started;
  }
}

export function tableName(): string {
  const name = process.env[TABLE_ENV];
  if (!name) throw new Error(`${TABLE_ENV} is not set`);
  return name;
}
