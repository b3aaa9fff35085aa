import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENDPOINT_ENV, TABLE_ENV } from '../routes.js';
import { guard } from './faults.js';

/**
 * Time a store call may take in all, retries included: a request that the store does not answer is
 * answered 503 within about 3 s (CONTRACT section 3), far inside the functions' 10 s timeout.
 */
export const STORE_CALL_MS = 2_500;
/** One attempt: DynamoDB answers in milliseconds, so a second without an answer is worth a retry. */
const ATTEMPT_MS = 1_000;

let shared: DynamoDBDocumentClient | undefined;

/**
 * One document client per Lambda container, made on first use. `requestTimeout` only warns unless
 * `throwOnRequestTimeout` is set (in the installed @smithy/node-http-handler), so both are set.
 */
export function documentClient(): DynamoDBDocumentClient {
  if (!shared) {
    const endpoint = process.env[ENDPOINT_ENV];
    const client = new DynamoDBClient({
      maxAttempts: 3,
      requestHandler: {
        connectionTimeout: ATTEMPT_MS,
        requestTimeout: ATTEMPT_MS,
        throwOnRequestTimeout: true,
      },
      ...(endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION ?? 'local',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {}),
    });
    shared = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  }
  return shared;
}

/**
 * Runs one store call within STORE_CALL_MS (every attempt of it, the SDK's retries included), with
 * throttling, timeouts and outages turned into StoreUnavailable.
 */
export function storeCall<T>(call: (client: DynamoDBDocumentClient, abortSignal: AbortSignal) => Promise<T>) {
  return guard(() => call(documentClient(), AbortSignal.timeout(STORE_CALL_MS)));
}

export function tableName(): string {
  const name = process.env[TABLE_ENV];
  if (!name) throw new Error(`${TABLE_ENV} is not set`);
  return name;
}
