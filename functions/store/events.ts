import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
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
import { tableName } from './client.js';
import { getByKey, putIfAbsent, queryItems, scanItems } from './table.js';

/**
 * The event store on DynamoDB (item kinds in functions/store/table.ts): a partition per game and an
 * item per **commit**, the events of one request, under sort key = the version of its first event.
 * This is the port the command flow and the read routes use: `loadGame` and `append`, with the
 * snapshots and the Idempotency-Keys of appended actions kept behind it.
 *
 * A request's events are appended together or not at all: one conditional put, `attribute_not_exists`
 * on (game, first version), one item (an autoplay of 28 cards is one write). No transaction is needed,
 * so the local store, which has none, behaves as DynamoDB does. A race is decided by that condition:
 * every writer appends at the version after the last one it loaded, which is always the first
 * version of the next commit, so two writers that loaded the same game collide on one key.
 *
 * Every commit that reaches a multiple of SNAPSHOT_EVERY also carries the state after it. Loading a
 * game is one strongly consistent Query, newest first, that stops at the first item with a state:
 * at most SNAPSHOT_EVERY items, however long the game. Snapshots are a cache: with them deleted, the
 * same Query reads back to the deal (version 0), which holds the token's hash too.
 */
export const SNAPSHOT_EVERY = 8;
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

interface StoredEventData {
  readonly type: string;
  readonly schema: number;
  readonly data: unknown;
}

/** A commit as the table holds it; an item of the item-per-event layout has `type`, `schema` and `data` instead of `events`. */
interface CommitItem {
  pk: string;
  sk: number;
  at: string;
  events?: StoredEventData[];
  type?: string;
  schema?: number;
  data?: unknown;
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
  /** Items the load folded: bounded by SNAPSHOT_EVERY (one more for a load at a past version). */
  readonly itemsRead: number;
  /**
   * The state at an earlier `version`, from what this load read (its base and the events above it),
   * without reading the store again; undefined for a version below the base.
   */
  stateAt(version: number): GameState | undefined;
}

/** The events a commit holds, with their versions (an item of the item-per-event layout holds one). */
const eventsOf = (item: CommitItem): { version: number; event: GameEvent }[] =>
  (item.events ?? [{ type: item.type!, schema: item.schema!, data: item.data }]).map((stored, i) => ({
    version: item.sk + i,
    event: upcast(stored),
  }));

const lastVersionOf = (item: CommitItem): number => item.sk + (item.events?.length ?? 1) - 1;

/** Whether a commit of versions first..last reaches a multiple of SNAPSHOT_EVERY, so carries the state. */
const carriesSnapshot = (first: number, last: number): boolean =>
  Math.floor(last / SNAPSHOT_EVERY) > Math.floor((first - 1) / SNAPSHOT_EVERY);

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

/** A game's commits newest first, those with sk <= `upTo` when given, a page of `pageSize` at a time. */
const newestFirst = (gameId: string, upTo: number | undefined, pageSize: number) =>
  queryItems({
    TableName: tableName(),
    ConsistentRead: true,
    KeyConditionExpression: upTo === undefined ? 'pk = :id' : 'pk = :id AND sk <= :upTo',
    ExpressionAttributeValues: upTo === undefined ? { ':id': gameId } : { ':id': gameId, ':upTo': upTo },
    ScanIndexForward: false,
    Limit: pageSize,
  }) as AsyncGenerator<CommitItem>;

/**
 * The game at its latest version, or at `upTo` when given. Reads newest first down to the first
 * commit that holds a usable state (or the deal), then folds the few events above it.
 */
/**
 * A game's log lacks a version it must hold: no write of the service leaves a gap (each commit is
 * conditional on the version before it), so its store lost items (a damaged local store). Nothing is
 * folded over the gap, served from it, or written after it: the request fails (500, logged).
 */
export class LogDamaged extends Error {
  constructor(gameId: string, missing: number, next: number) {
    super(
      `the log of game ${gameId} is damaged: version ${missing} is missing (the next one held is ${next})`,
    );
    this.name = 'LogDamaged';
  }
}

export async function loadGame(gameId: string, upTo?: number): Promise<Loaded | undefined> {
  const newer: CommitItem[] = [];
  let base: { state: GameState; identity: Identity; keys: readonly KeyRecord[]; at: string } | undefined;
  // A load at a past version may first meet the commit that runs past it: one item more.
  for await (const item of newestFirst(gameId, upTo, SNAPSHOT_EVERY + (upTo === undefined ? 0 : 1))) {
    const usable = upTo === undefined || lastVersionOf(item) <= upTo;
    const snapshot = usable && item.snap ? readSnapshot(item.snap) : undefined;
    if (snapshot) {
      base = { state: snapshot.state, identity: identityOf(item), keys: snapshot.keys, at: item.at };
      break;
    }
    if (item.sk === 0) {
      base = {
        state: evolve(null, eventsOf(item)[0]!.event),
        identity: identityOf(item),
        keys: [],
        at: item.at,
      };
      break;
    }
    newer.push(item);
  }
  if (!base) return undefined;
  let state = base.state;
  let keys: ReadonlyMap<string, KeyRecord> = new Map(base.keys.map((record) => [record.key, record]));
  let updatedAt = base.at;
  const folded: { version: number; event: GameEvent }[] = [];
  for (const item of newer.reverse()) {
    for (const stored of eventsOf(item)) {
      if (upTo !== undefined && stored.version > upTo) break;
      if (stored.version !== state.version + 1)
        throw new LogDamaged(gameId, state.version + 1, stored.version);
      state = evolve(state, stored.event);
      folded.push(stored);
    }
    updatedAt = item.at;
    if (item.idem) keys = withKey(keys, { key: item.idem, fingerprint: item.fp! }, lastVersionOf(item));
  }
  const from = base.state;
  const stateAt = (version: number) =>
    version < from.version
      ? undefined
      : folded.reduce((at, { version: v, event }) => (v <= version ? evolve(at, event) : at), from);
  return { ...base.identity, state, keys, updatedAt, itemsRead: newer.length + 1, stateAt };
}

/** The identity a deal or snapshot item carries (a snapshot of an older release: its deal's time unknown). */
const identityOf = (item: CommitItem): Identity => ({
  tokenHash: item.tokenHash!,
  ...(item.owner ? { owner: item.owner } : {}),
  createdAt: item.createdAt ?? item.at,
});

const identityItem = (identity: Identity) => ({
  tokenHash: identity.tokenHash,
  createdAt: identity.createdAt,
  ...(identity.owner ? { owner: identity.owner } : {}),
});

/** Events with versions in [from, to], oldest first: the commits that hold them, read newest first. */
export async function readEvents(gameId: string, from: number, to: number): Promise<StoredEvent[]> {
  const commits: CommitItem[] = [];
  // Each commit holds one event at least, so to - from + 2 items always reach back past `from`.
  for await (const item of newestFirst(gameId, to, Math.min(to - from + 2, 1_000))) {
    commits.push(item);
    if (item.sk <= from) break;
  }
  const events = commits.reverse().flatMap((item) =>
    eventsOf(item)
      .filter(({ version }) => version >= from && version <= to)
      .map(({ version, event }) => ({ version, type: event.type, at: item.at, event })),
  );
  events.forEach(({ version }, i) => {
    const expected = i === 0 ? Math.max(from, 0) : events[i - 1]!.version + 1;
    if (version !== expected) throw new LogDamaged(gameId, expected, version);
  });
  return events;
}

/** Writes the deal (version 0), dealt at `identity.createdAt`. False if a game with this id already exists. */
export function createGame(gameId: string, dealt: GameEvent, identity: Identity): Promise<boolean> {
  return putOwn({
    pk: gameId,
    sk: 0,
    at: identity.createdAt,
    events: [{ type: dealt.type, schema: EVENT_SCHEMA, data: dealt.data }],
    ...identityItem(identity),
  });
}

/** The answer to `append`: what a load would now return, or nothing written (another write came first). */
export const CONFLICT = Symbol('version conflict');

/**
 * Appends a request's events after the version `expected` was loaded at, as one commit: one
 * conditional put of one item, under the request's key when it has one. All of them are written or
 * none (CONFLICT: another write took that version first).
 */
export async function append(
  gameId: string,
  events: readonly GameEvent[],
  options: { readonly expected: Loaded; readonly key?: Keyed | undefined; readonly at: string },
): Promise<Loaded | typeof CONFLICT> {
  const { expected, key, at } = options;
  const state = events.reduce<GameState>(evolve, expected.state);
  const first = expected.state.version + 1;
  const keys = withKey(expected.keys, key, state.version);
  const item: CommitItem = {
    pk: gameId,
    sk: first,
    at,
    events: events.map((event) => ({ type: event.type, schema: EVENT_SCHEMA, data: event.data })),
  };
  if (key) Object.assign(item, { idem: key.key, fp: key.fingerprint });
  // On every commit of a player's game: the change stream's consumer can tell it from an
  // anonymous game's without reading the log (in AWS, the mapping's filter drops the rest).
  if (expected.owner) item.owner = expected.owner;
  if (carriesSnapshot(first, state.version)) {
    item.snap = encodeSnapshot({ state: toSnapshot(state), keys: [...keys.values()] });
    Object.assign(item, identityItem(expected));
  }
  if (!(await putOwn(item))) return CONFLICT;
  return { ...expected, state, keys, updatedAt: at };
}

/**
 * Puts a commit that must not exist yet; false (nothing written) if one does. A commit that exists
 * because this very put landed and the SDK then retried it (the first attempt timed out, but the
 * store wrote it) is recognised by its write id and counts as written, so a retried put is never
 * mistaken for a lost race and decided, and applied, again.
 */
async function putOwn(item: CommitItem): Promise<boolean> {
  const write = { ...item, w: randomBytes(12).toString('base64url') };
  if (await putIfAbsent(tableName(), write)) return true;
  return (await getByKey(tableName(), { pk: item.pk, sk: item.sk }))?.w === write.w;
}

/**
 * Every signed-in player's game, by id (a Scan for the deals that carry an owner: rebuilds only).
 * Strongly consistent: a rebuild deletes the rows of the games this does not list, and a row the
 * projector wrote just before the rebuild is of a deal that an eventually consistent Scan could miss.
 */
export async function* ownedGames(): AsyncGenerator<string> {
  for await (const item of scanItems({
    TableName: tableName(),
    ConsistentRead: true,
    // The deals of players' games: the records beside the log have a `#` in their key and no events.
    FilterExpression:
      'sk = :deal AND attribute_exists(#owner) AND (attribute_exists(#events) OR attribute_exists(#type))',
    ExpressionAttributeNames: { '#owner': 'owner', '#events': 'events', '#type': 'type' },
    ExpressionAttributeValues: { ':deal': 0 },
    ProjectionExpression: 'pk',
  })) {
    yield item.pk as string;
  }
}

/** When the game's first action after its deal was appended (its commit starts at version 1); none before. */
export async function firstActionAt(gameId: string): Promise<string | undefined> {
  return (await getByKey(tableName(), { pk: gameId, sk: 1 }))?.at as string | undefined;
}
