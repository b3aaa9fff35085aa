import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENDPOINT_ENV, TABLE_ENV } from '../routes.js';

let shared: DynamoDBDocumentClient | undefined;

/**
 * One document client per Lambda container, made on first use. Short timeouts and few retries:
 * a slow store answers 503 with Retry-After well inside the function's timeout.
 */
export function documentClient(): DynamoDBDocumentClient {
  if (!shared) {
    const endpoint = process.env[ENDPOINT_ENV];
    const client = new DynamoDBClient({
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
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

export function tableName(): string {
  const name = process.env[TABLE_ENV];
  if (!name) throw new Error(`${TABLE_ENV} is not set`);
  return name;
}
