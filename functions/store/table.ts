import {
  GetCommand,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { storeCall } from './client.js';

/**
 * The event table: `pk` (string) and `sk` (number). Every kind of item it holds:
 *
 * - **A commit** (`pk = <game id>`, `sk = <version of its first event>`): the events one request
 *   appended, in order (`events: [{ type, schema, data }]`), their time (`at`), the write id (`w`),
 *   the request's Idempotency-Key and fingerprint when it had one (`idem`, `fp`), and the game's
 *   owner on every commit of a player's game (`owner`, so the change stream's consumer can skip
 *   anonymous games without reading them). The deal is the commit at `sk = 0`, with the token's
 *   hash and the time it was dealt (`tokenHash`, `createdAt`). A commit that reaches a version that
 *   is a multiple of SNAPSHOT_EVERY also carries the state after its last event (`snap`, gzip JSON,
 *   with the recent Idempotency-Keys) and the identity again (a load that stops there needs it).
 * - **An event of the item-per-event layout** (`pk = <game id>`, `sk = <its version>`, `type`,
 *   `schema` and `data` at the top level, no `events`): read as a commit of one event, so logs
 *   written before commits keep folding; nothing writes them any more.
 * - **A creation under an Idempotency-Key** (`pk = idem#<sha256(key)>`, `sk = 0`;
 *   functions/store/creations.ts): the game it created, the deal and the token sealed under the key.
 * - **A first answer that appended nothing** (`pk = answer#<sha256(game id, key)>`, `sk = 0`;
 *   functions/store/answers.ts): the fingerprint, the version and the refusal, if any.
 *
 * Only the log's items (commits and events) carry `owner` or a plain game id as `pk`; the records
 * beside it have a `#` in theirs. This module is the store's own: the handlers use the ports
 * (events.ts, answers.ts, creations.ts, readModels.ts), never these helpers.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

type Item = Record<string, unknown>;

const conditionFailed = (error: unknown) =>
  (error as { name?: string }).name === 'ConditionalCheckFailedException';

/**
 * Puts an item under a condition: true when written, false (nothing written) when the condition
 * did not hold. Any other failure is thrown (a store fault becomes StoreUnavailable in storeCall).
 */
export async function putIf(
  tableName: string,
  item: Item,
  condition: Pick<
    PutCommandInput,
    'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<boolean> {
  try {
    await storeCall((client, abortSignal) =>
      client.send(new PutCommand({ TableName: tableName, Item: item, ...condition }), { abortSignal }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}

/** Puts an item that must not exist yet: false (and nothing written) if one does. */
export const putIfAbsent = (tableName: string, item: Item): Promise<boolean> =>
  putIf(tableName, item, { ConditionExpression: 'attribute_not_exists(pk)' });

/** One item by its key, read strongly consistent. */
export async function getByKey(tableName: string, key: Item): Promise<Item | undefined> {
  const result = await storeCall((client, abortSignal) =>
    client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }), { abortSignal }),
  );
  return result?.Item;
}

interface Page {
  readonly Items?: Item[];
  readonly Count?: number;
  readonly ScannedCount?: number;
  readonly LastEvaluatedKey?: Item;
}

/** The pages of a Query or a Scan, one after another, each from where the last one ended. */
async function* pages(read: (start: Item | undefined) => Promise<Page>, from?: Item): AsyncGenerator<Page> {
  let start = from;
  do {
    const page = await read(start);
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every page a Query reads (`Limit` is the page size). */
export const queryPages = (input: QueryCommandInput): AsyncGenerator<Page> =>
  pages(
    (start) =>
      storeCall((client, abortSignal) =>
        client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }), { abortSignal }),
      ),
    input.ExclusiveStartKey,
  );

/** Every item a Query matches, page after page; stop reading by breaking out. */
export async function* queryItems(input: QueryCommandInput): AsyncGenerator<Item> {
  for await (const page of queryPages(input)) yield* page.Items ?? [];
}

/** One page of a Query's items (the first; a caller that pages on names where to start). */
export async function queryPage(input: QueryCommandInput): Promise<{ items: Item[] }> {
  const { value: page } = await queryPages(input).next();
  return { items: page?.Items ?? [] };
}

/** Every item of a Scan, page after page (rebuilds only: a Scan reads the whole table). */
export async function* scanItems(input: ScanCommandInput): AsyncGenerator<Item> {
  const scan = (start: Item | undefined) =>
    storeCall((client, abortSignal) =>
      client.send(new ScanCommand({ ...input, ExclusiveStartKey: start }), { abortSignal }),
    );
  for await (const page of pages(scan, input.ExclusiveStartKey)) yield* page.Items ?? [];
}
