import { randomBytes } from 'node:crypto';
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
import { storeCall, tableName } from './client.js';

/**
 * The event store on DynamoDB: a partition per game, an item per event, sort key = version. This is
 * the port the command flow and the read routes use: `loadGame` and `append`, with the snapshots and
 * the Idempotency-Keys of appended actions kept behind it.
 *
 * Every SNAPSHOT_EVERY-th event item also carries the state after it (gzip JSON), the token's hash
 * and the recent Idempotency-Keys. Loading a game is one strongly consistent Query, newest first,
 * that stops at the first item with a state: a load never reads more than SNAPSHOT_EVERY + 1 items,
 * however long the game. The snapshots are a cache: with them deleted, the same Query simply reads
 * back to the deal (version 0), which holds the token's hash too.
 */
export const SNAPSHOT_EVERY = 32;
/** Idempotency-Keys are remembered for at least this many of a game's last actions. */
export const KEYS_KEPT = 128;

/** A request's Idempotency-Key, with what makes two requests under it the same request. */
export interface Keyed {
  readonly key: string;
  readonly fingerprint: string;
}

export interface KeyRecord extends Keyed {
  /** The version the keyed request's last event took. */
  readonly version: number;
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
  /** The write that put this item: tells a write of ours that the SDK retried from a racing one. */
  w?: string;
  idem?: string;
  fp?: string;
  snap?: Uint8Array;
  /** On the deal and on every snapshot: who may open the game, and when it was dealt. */
  tokenHash?: string;
  /** The owner is on every item of a player's game. */
  owner?: string;
  createdAt?: string;
}

interface SnapshotBody {
  readonly state: StateSnapshot;
  readonly keys: readonly KeyRecord[];
}

/** Who may open a game, and when it was dealt: on the deal's item, and again on every snapshot. */
export interface Identity {
  readonly tokenHash: string;
  /** The player (a JWT's `sub`) who created the game signed in; none for an anonymous game. */
  readonly owner?: string | undefined;
  readonly createdAt: string;
}

/** A game as loaded: what a command is decided on, and what a read shows. */
export interface Loaded extends Identity {
  readonly state: GameState;
  /** When the last event folded was appended. */
  readonly updatedAt: string;
  /** Idempotency-Keys of recent actions, by key. */
  readonly keys: ReadonlyMap<string, KeyRecord>;
  /** Items the load folded: bounded by SNAPSHOT_EVERY + 1. */
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

/** The recent keys once `version` is appended under `key`: the newest KEYS_KEPT actions' keys. */
function withKey(
  keys: ReadonlyMap<string, KeyRecord>,
  key: Keyed | undefined,
  version: number,
): ReadonlyMap<string, KeyRecord> {
  const kept = new Map([...keys].filter(([, record]) => record.version > version - KEYS_KEPT));
  if (key) kept.set(key.key, { ...key, version });
  return kept;
}

async function* query(input: Omit<QueryCommandInput, 'TableName'>): AsyncGenerator<Item> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await storeCall((client, abortSignal) =>
      client.send(
        new QueryCommand({
          TableName: tableName(),
          ConsistentRead: true,
          ...input,
          ExclusiveStartKey: start,
        }),
        { abortSignal },
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
  let base: { state: GameState; identity: Identity; keys: readonly KeyRecord[]; at: string } | undefined;
  for await (const item of query({
    KeyConditionExpression: upTo === undefined ? 'pk = :id' : 'pk = :id AND sk <= :upTo',
    ExpressionAttributeValues: upTo === undefined ? { ':id': gameId } : { ':id': gameId, ':upTo': upTo },
    ScanIndexForward: false,
    Limit: SNAPSHOT_EVERY + 1,
  })) {
    const snapshot = item.snap && readSnapshot(item.snap);
    if (snapshot) {
      base = { state: snapshot.state, identity: identityOf(item), keys: snapshot.keys, at: item.at };
      break;
    }
    if (item.sk === 0) {
      base = { state: evolve(null, toEvent(item)), identity: identityOf(item), keys: [], at: item.at };
      break;
    }
    newer.push(item);
  }
  if (!base) return undefined;
  const updatedAt = newer[0]?.at ?? base.at;
  let state = base.state;
  let keys: ReadonlyMap<string, KeyRecord> = new Map(base.keys.map((record) => [record.key, record]));
  for (const item of newer.reverse()) {
    state = evolve(state, toEvent(item));
    if (item.idem) keys = withKey(keys, { key: item.idem, fingerprint: item.fp! }, item.sk);
  }
  return {
    ...base.identity,
    state,
    keys,
    updatedAt,
    itemsRead: newer.length + 1,
  };
}

/** The identity a deal or snapshot item carries (a snapshot of an older release: its deal's time unknown). */
const identityOf = (item: Item): Identity => ({
  tokenHash: item.tokenHash!,
  ...(item.owner ? { owner: item.owner } : {}),
  createdAt: item.createdAt ?? item.at,
});

const identityItem = (identity: Identity) => ({
  tokenHash: identity.tokenHash,
  createdAt: identity.createdAt,
  ...(identity.owner ? { owner: identity.owner } : {}),
});

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

/** Writes the deal (version 0), dealt at `identity.createdAt`. False if a game with this id already exists. */
export function createGame(gameId: string, dealt: GameEvent, identity: Identity): Promise<boolean> {
  return putOwn({
    pk: gameId,
    sk: 0,
    type: dealt.type,
    schema: EVENT_SCHEMA,
    at: identity.createdAt,
    data: dealt.data,
    ...identityItem(identity),
  });
}

/** The answer to `append`: what a load would now return, or nothing written (another write came first). */
export const CONFLICT = Symbol('version conflict');

/**
 * Appends events after the version `expected` was loaded at, each with a conditional put on its
 * version, under the request's key when it has one (every event carries it, so a retry finds the
 * last). The first put decides the race: if it fails, nothing was written and the answer is CONFLICT;
 * if a later one fails, the events before it stand.
 */
export async function append(
  gameId: string,
  events: readonly GameEvent[],
  options: { readonly expected: Loaded; readonly key?: Keyed | undefined; readonly at: string },
): Promise<Loaded | typeof CONFLICT> {
  const { expected, key, at } = options;
  let loaded = expected;
  for (const event of events) {
    const state = evolve(loaded.state, event);
    const keys = withKey(loaded.keys, key, state.version);
    const item: Item = {
      pk: gameId,
      sk: state.version,
      type: event.type,
      schema: EVENT_SCHEMA,
      at,
      data: event.data,
    };
    if (key) Object.assign(item, { idem: key.key, fp: key.fingerprint });
    // On every item of a player's game: the change stream's consumer can tell it from an
    // anonymous game's without reading the log (in AWS, the mapping's filter drops the rest).
    if (loaded.owner) item.owner = loaded.owner;
    if (state.version % SNAPSHOT_EVERY === 0) {
      item.snap = encodeSnapshot({ state: toSnapshot(state), keys: [...keys.values()] });
      Object.assign(item, identityItem(loaded));
    }
    if (!(await putOwn(item))) break;
    loaded = { ...loaded, state, keys, updatedAt: at };
  }
  return loaded === expected ? CONFLICT : loaded;
}

/**
 * Puts an item that must not exist yet; false (nothing written) if one does. An item that exists
 * because this very put landed and the SDK then retried it (the first attempt timed out, but the
 * store wrote it) is recognised by its write id and counts as written, so a retried put is never
 * mistaken for a lost race and decided, and applied, again.
 */
async function putOwn(item: Item): Promise<boolean> {
  const write = { ...item, w: randomBytes(12).toString('base64url') };
  if (await putNew(write)) return true;
  return (await getItem(item.pk, item.sk))?.w === write.w;
}

/** Puts an item that must not exist yet: false (and nothing written) if one does. */
export async function putNew(item: Item | Record<string, unknown>): Promise<boolean> {
  try {
    await storeCall((client, abortSignal) =>
      client.send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
        { abortSignal },
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
  const result = await storeCall((client, abortSignal) =>
    client.send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }), {
      abortSignal,
    }),
  );
  return result?.Item;
}
