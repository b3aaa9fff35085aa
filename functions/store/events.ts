import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  EVENT_SCHEMA,
  evolve,
  fromSnapshot,
  type GameEvent,
  type GameState,
  type StateSnapshot,
  toSnapshot,
  upcast,
} from '../../domain/index.js';
import { documentClient, tableName } from './client.js';
import { guard } from './faults.js';

/**
 * The event store on DynamoDB: a partition per game, an item per event, sort key = version.
 *
 * Every SNAPSHOT_EVERY-th event item also carries the state after it (gzip JSON), the token's hash
 * and the recent Idempotency-Keys. Loading a game is one strongly consistent Query, newest first,
 * that stops at the first item with a state: a move never reads more than SNAPSHOT_EVERY + 1 items,
 * however long the game. The snapshots are a cache: with them deleted, the same Query simply reads
 * back to the deal (version 0), which holds the token's hash too.
 */
export const SNAPSHOT_EVERY = 32;
/** Idempotency-Keys are remembered for at least this many of a game's last actions. */
export const KEYS_KEPT = 128;

export interface KeyRecord {
  readonly key: string;
  readonly version: number;
  readonly fingerprint: string;
}

/** An event as stored, in the envelope that the events route shows. */
export interface StoredEvent {
  readonly version: number;
  readonly type: GameEvent['type'];
  readonly at: string;
  readonly event: GameEvent;
}

interface Item {
  pk: string;
  sk: number;
  type: string;
  schema: number;
  at: string;
  data: unknown;
  idem?: string;
  fp?: string;
  snap?: Uint8Array;
  tokenHash?: string;
}

interface SnapshotBody {
  readonly state: StateSnapshot;
  readonly keys: readonly KeyRecord[];
}

export interface Loaded {
  readonly state: GameState;
  readonly tokenHash: string;
  /** Idempotency-Keys of recent actions, by key. */
  readonly keys: ReadonlyMap<string, KeyRecord>;
  /** Items the Query returned: bounded by SNAPSHOT_EVERY + 1. */
  readonly itemsRead: number;
}

const EVENT_FIELDS = 'pk, sk, #type, #schema, #at, #data';
const EVENT_NAMES = { '#type': 'type', '#schema': 'schema', '#at': 'at', '#data': 'data' };

const toEvent = (item: Item): GameEvent => upcast({ type: item.type, schema: item.schema, data: item.data });
const toStored = (item: Item): StoredEvent => ({
  version: item.sk,
  type: item.type as GameEvent['type'],
  at: item.at,
  event: toEvent(item),
});

const encodeSnapshot = (body: SnapshotBody): Uint8Array => gzipSync(JSON.stringify(body));
/** A snapshot's state and keys; undefined for one this release cannot read (the log is then folded). */
function readSnapshot(bytes: Uint8Array): { state: GameState; keys: readonly KeyRecord[] } | undefined {
  try {
    const body = JSON.parse(gunzipSync(bytes).toString('utf8')) as SnapshotBody;
    return { state: fromSnapshot(body.state), keys: body.keys };
  } catch {
    return undefined;
  }
}

async function* query(input: Omit<QueryCommandInput, 'TableName'>): AsyncGenerator<Item> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await guard(() =>
      documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          ConsistentRead: true,
          ...input,
          ExclusiveStartKey: start,
        }),
      ),
    );
    for (const item of page.Items ?? []) yield item as Item;
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * The game at its latest version, or at `upTo` when given. Reads newest first down to the first item
 * that holds a state (or the deal), then folds the few events above it.
 */
export async function loadGame(gameId: string, upTo?: number): Promise<Loaded | undefined> {
  const newer: Item[] = [];
  let base: { state: GameState; tokenHash: string; keys: readonly KeyRecord[] } | undefined;
  for await (const item of query({
    KeyConditionExpression: upTo === undefined ? 'pk = :id' : 'pk = :id AND sk <= :upTo',
    ExpressionAttributeValues: upTo === undefined ? { ':id': gameId } : { ':id': gameId, ':upTo': upTo },
    ScanIndexForward: false,
    Limit: SNAPSHOT_EVERY + 1,
  })) {
    const snapshot = item.snap && readSnapshot(item.snap);
    if (snapshot) {
      base = { state: snapshot.state, tokenHash: item.tokenHash!, keys: snapshot.keys };
      break;
    }
    if (item.sk === 0) {
      base = { state: evolve(null, toEvent(item)), tokenHash: item.tokenHash!, keys: [] };
      break;
    }
    newer.push(item);
  }
  if (!base) return undefined;
  const keys = new Map(base.keys.map((record) => [record.key, record]));
  let state = base.state;
  for (const item of newer.reverse()) {
    state = evolve(state, toEvent(item));
    if (item.idem) keys.set(item.idem, { key: item.idem, version: item.sk, fingerprint: item.fp! });
  }
  return { state, tokenHash: base.tokenHash, keys, itemsRead: newer.length + 1 };
}

/** Events with versions in [from, to], oldest first (follows every page). */
export async function readEvents(gameId: string, from: number, to: number): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const item of query({
    KeyConditionExpression: 'pk = :id AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':id': gameId, ':from': from, ':to': to },
    ProjectionExpression: EVENT_FIELDS,
    ExpressionAttributeNames: EVENT_NAMES,
  })) {
    events.push(toStored(item));
  }
  return events;
}

/** Writes the deal (version 0). False if a game with this id already exists. */
export async function createGame(
  gameId: string,
  dealt: GameEvent,
  tokenHash: string,
  at: string,
): Promise<boolean> {
  return putNew({
    pk: gameId,
    sk: 0,
    type: dealt.type,
    schema: EVENT_SCHEMA,
    at,
    data: dealt.data,
    tokenHash,
  });
}

export interface Append {
  readonly event: GameEvent;
  /** The state after the event (its version is the event's version). */
  readonly state: GameState;
  readonly at: string;
  readonly key?: { readonly key: string; readonly fingerprint: string };
  /** What the load saw: carried into the snapshot when this item holds one. */
  readonly loaded: Loaded;
}

/**
 * Appends one event at the version after the loaded one, with a conditional put that fails if that
 * version exists. False means another write took the version first: nothing was written.
 */
export async function append(gameId: string, entry: Append): Promise<boolean> {
  const { event, state, at, key, loaded } = entry;
  const item: Item = {
    pk: gameId,
    sk: state.version,
    type: event.type,
    schema: EVENT_SCHEMA,
    at,
    data: event.data,
  };
  if (key) {
    item.idem = key.key;
    item.fp = key.fingerprint;
  }
  if (state.version % SNAPSHOT_EVERY === 0) {
    const keys = [...loaded.keys.values()];
    if (key) keys.push({ key: key.key, version: state.version, fingerprint: key.fingerprint });
    item.snap = encodeSnapshot({
      state: toSnapshot(state),
      keys: keys.filter((record) => record.version > state.version - KEYS_KEPT),
    });
    item.tokenHash = loaded.tokenHash;
  }
  return putNew(item);
}

/** Puts an item that must not exist yet: false (and nothing written) if one does. */
export async function putNew(item: Item | Record<string, unknown>): Promise<boolean> {
  try {
    await guard(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** One item by key (for records beside the log, such as creations under an Idempotency-Key). */
export async function getItem(pk: string, sk: number): Promise<Record<string, unknown> | undefined> {
  const result = await guard(() =>
    documentClient().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true })),
  );
  return result.Item;
}

/** An event in the shape the API shows: `{ version, type, schema, at, data }`. */
export const eventJson = (stored: StoredEvent, shown: { readonly type: string; readonly data: unknown }) => ({
  version: stored.version,
  type: shown.type,
  schema: EVENT_SCHEMA,
  at: stored.at,
  data: shown.data,
});
