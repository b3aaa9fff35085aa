import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { TABLE_ENV } from '../../functions/routes.js';
import { BY_RANK } from '../../functions/store/dailyModels.js';
import { BY_STATUS, READ_KEYS, READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { TABLE_KEYS } from '../../functions/store/table.js';
import { place } from './build-cache.js';
import { answerThisMachineOnly } from './target.js';

export interface LocalStore {
  readonly endpoint: string;
  readonly tableName: string;
  readonly readTableName: string;
  /**
   * The read-model table was made anew beside a log kept from before (it had been deleted, or was
   * of a release with other indexes): rebuild them.
   */
  readonly rebuild: boolean;
  close(): Promise<void>;
}

export const LOCAL_TABLE = 'klondike-local';
export const LOCAL_READ_TABLE = 'klondike-local-read-models';

/** The store folder is in use by another process (a second `npm start -- --data DIR`). */
export class FolderInUse extends Error {}

/** A table the runtime was told to use is not one it may use as it stands: `npm start` ends, naming it. */
export class WrongTable extends Error {}

/**
 * A call to the store failed, or was cut short by the caller's signal: what it was `doing` (such as
 * "creating the table klondike-local"), and the SDK's error as its `cause`.
 */
export class StoreCallFailed extends Error {
  constructor(
    readonly doing: string,
    override readonly cause: unknown,
  ) {
    super(`${doing}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** The call's answer, or a StoreCallFailed saying what it was doing. */
export async function asking<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new StoreCallFailed(doing, error);
  }
}

/** How often a table being created or deleted is asked whether it is done. */
const SETTLE_POLL_MS = 100;

/** The table's status, or undefined when it is not there. */
const statusOf = (
  client: DynamoDBClient,
  TableName: string,
  signal: AbortSignal,
): Promise<string | undefined> =>
  client.send(new DescribeTableCommand({ TableName }), { abortSignal: signal }).then(
    ({ Table }) => Table?.TableStatus,
    (error) => {
      if (error instanceof ResourceNotFoundException) return undefined;
      throw error;
    },
  );

/** Asks until the table is ACTIVE, or until it is no longer there (`gone`). */
async function waitForTable(
  client: DynamoDBClient,
  TableName: string,
  until: 'active' | 'gone',
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    const status = await statusOf(client, TableName, signal);
    if (until === 'gone' ? status === undefined : status === 'ACTIVE') return;
    await sleep(SETTLE_POLL_MS, undefined, { signal });
  }
}

const KEY_SCHEMA = (partitionKey: string, sortKey: string, sortType: 'S' | 'N') => ({
  AttributeDefinitions: [
    { AttributeName: partitionKey, AttributeType: 'S' as const },
    { AttributeName: sortKey, AttributeType: sortType },
  ],
  KeySchema: [
    { AttributeName: partitionKey, KeyType: 'HASH' as const },
    { AttributeName: sortKey, KeyType: 'RANGE' as const },
  ],
});

/** A table's shape as DescribeTable tells it: its key, with the keys' types, and its indexes. */
interface Shape {
  readonly AttributeDefinitions?: readonly { AttributeName?: string; AttributeType?: string }[];
  readonly KeySchema?: readonly { AttributeName?: string; KeyType?: string }[];
  readonly GlobalSecondaryIndexes?: readonly { IndexName?: string }[];
}
const keyOf = (table: Shape) =>
  (table.KeySchema ?? [])
    .map((key) => {
      const type = table.AttributeDefinitions?.find((a) => a.AttributeName === key.AttributeName);
      return `${key.AttributeName} (${type?.AttributeType ?? '?'})`;
    })
    .join(', ');
const indexesOf = (table: Shape) => {
  const names = (table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName ?? '?').sort();
  return names.length === 0
    ? 'no index'
    : `the ${names.length === 1 ? 'index' : 'indexes'} ${names.join(', ')}`;
};

/**
 * Creates the service's tables on a DynamoDB-compatible endpoint, as the stack creates them (the
 * event log, and the read models with their indexes by status and by daily rank), unless they are
 * there already. A read-model table kept from a release with other indexes (its key as now, and the
 * index by status every release had) is made anew, for read models can be deleted and rebuilt from
 * the log: `rebuild` says the caller must rebuild them, as it does for a read-model table created
 * beside an event log that was there (the read models had been deleted). Nothing else is ever
 * deleted: the log is never changed, and a table that is not what its name is given for (an event
 * table of another shape, the two names swapped or the same) is a WrongTable that names it, before
 * anything changes.
 * Every call to the store, and every wait for a table, ends when `signal` aborts (by default after
 * 30 s); a call that fails or is cut short is a StoreCallFailed saying which.
 */
export async function ensureTables(
  endpoint: string,
  tableName: string,
  readTableName: string,
  signal: AbortSignal = AbortSignal.timeout(30_000),
): Promise<{ readonly rebuild: boolean }> {
  if (tableName === readTableName)
    throw new WrongTable(
      `${TABLE_ENV} and ${READ_TABLE_ENV} both name the table ${tableName}: the event log and the read models need a table each.`,
    );
  const client = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const readKeys = KEY_SCHEMA(READ_KEYS.partitionKey, READ_KEYS.sortKey, 'S');
  const tables = [
    {
      shape: { TableName: tableName, ...KEY_SCHEMA(TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, 'N') },
      what: 'an event log',
      fix: `name the event log in ${TABLE_ENV}`,
      rebuildable: false,
    },
    {
      shape: {
        TableName: readTableName,
        AttributeDefinitions: [
          ...readKeys.AttributeDefinitions,
          { AttributeName: BY_STATUS.partitionKey, AttributeType: 'S' as const },
          { AttributeName: BY_RANK.partitionKey, AttributeType: 'S' as const },
          { AttributeName: BY_RANK.sortKey, AttributeType: 'S' as const },
        ],
        KeySchema: readKeys.KeySchema,
        GlobalSecondaryIndexes: [BY_STATUS, BY_RANK].map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
            { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'ALL' as const },
        })),
      },
      what: 'a read-model table',
      fix: `name another table in ${READ_TABLE_ENV} (one that is not there is created)`,
      rebuildable: true,
    },
  ];
  let rebuild = false;
  const create = (shape: (typeof tables)[number]['shape']) =>
    asking(`creating the table ${shape.TableName}`, () =>
      client
        .send(new CreateTableCommand({ BillingMode: 'PAY_PER_REQUEST', ...shape }), { abortSignal: signal })
        .then(
          () => true,
          (error) => {
            if (error instanceof ResourceInUseException) return false; // kept from an earlier run
            throw error;
          },
        ),
    );
  try {
    // One after the other: a wrong event table stops the start before the read-model table is touched.
    let logKept = false;
    for (const { shape, what, fix, rebuildable } of tables) {
      const { TableName } = shape;
      let created = await create(shape);
      if (!created && rebuildable && (await statusOf(client, TableName, signal)) === 'DELETING') {
        // Read models being deleted (by an operator, while the runtime ran): made again once gone.
        await asking(`waiting for the table ${TableName} to be deleted`, () =>
          waitForTable(client, TableName, 'gone', signal),
        );
        created = await create(shape);
      }
      // A read-model table made anew beside a log kept from before (it was deleted): rebuilt from the log.
      if (created && rebuildable && logKept) rebuild = true;
      if (!rebuildable) logKept = !created;
      if (!created) {
        const { Table: held = {} } = await asking(`describing the table ${TableName}`, () =>
          client.send(new DescribeTableCommand({ TableName }), { abortSignal: signal }),
        );
        const sameKey = keyOf(held) === keyOf(shape);
        if (!sameKey || indexesOf(held) !== indexesOf(shape)) {
          const ours = held.GlobalSecondaryIndexes?.some((index) => index.IndexName === BY_STATUS.indexName);
          if (!(rebuildable && sameKey && ours))
            throw new WrongTable(
              `the table ${TableName} at ${endpoint} is not ${what}: its key is ${keyOf(held)} with ${indexesOf(held)}, where ${what} has ${keyOf(shape)} with ${indexesOf(shape)}; ${fix}. The table was left as it is.`,
            );
          await asking(`deleting the read-model table ${TableName} of another release`, async () => {
            await client.send(new DeleteTableCommand({ TableName }), { abortSignal: signal });
            await waitForTable(client, TableName, 'gone', signal);
          });
          await create(shape);
          rebuild = true;
        }
      }
      await asking(`waiting for the table ${TableName} to be active`, () =>
        waitForTable(client, TableName, 'active', signal),
      );
    }
  } finally {
    client.destroy();
  }
  return { rebuild };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the data folder for this process. LevelDB, under dynalite, allows one process a folder; a
 * second one would fail later, deep inside dynalite, with "Database is closed". A lock file with the
 * owner's process id says it up front (a lock left by a process that is gone is taken over).
 */
const held = new Set<string>();

/**
 * Makes the data folder and the folders above it that are missing, one by one (Node's recursive
 * mkdir never returns for a path under /proc), or says in one line why it cannot.
 */
function makeFolder(dataDir: string, folder = resolve(dataDir)): void {
  let kind: 'folder' | 'file' | undefined;
  try {
    kind = statSync(folder).isDirectory() ? 'folder' : 'file';
  } catch {}
  if (kind === 'folder') return;
  if (kind === 'file') throw new Error(`The data folder ${dataDir} cannot be made: ${folder} is a file.`);
  if (dirname(folder) !== folder) makeFolder(dataDir, dirname(folder));
  try {
    // The store holds every deal, the day's daily deal among them: the data folder is its owner's
    // alone (the folders above it as the system makes them).
    mkdirSync(folder, folder === resolve(dataDir) ? { mode: 0o700 } : {});
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new Error(`The data folder ${dataDir} cannot be made: ${(error as Error).message}.`);
  }
}

function lockFolder(dataDir: string): () => void {
  makeFolder(dataDir);
  const path = join(resolve(dataDir), 'klondike.lock');
  const inUse = (owner: number) =>
    new FolderInUse(
      `The data folder ${dataDir} is in use by another local runtime (process ${owner}). Stop that one, or choose another folder with --data (if process ${owner} is no local runtime, delete ${path}).`,
    );
  if (held.has(path)) throw inUse(process.pid);
  const take = () => {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  };
  try {
    take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(readFileSync(path, 'utf8'));
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw inUse(owner);
    rmSync(path, { force: true });
    take();
  }
  held.add(path);
  return () => {
    held.delete(path);
    rmSync(path, { force: true });
  };
}

/**
 * The file of a data folder kept beside an outside store (DYNAMODB_ENDPOINT): which store and table
 * its change feed's journal follows.
 */
export const OUTSIDE_STORE_FILE = 'outside-store';
/** A file LevelDB keeps in every database folder: the folder holds the embedded store. */
const EMBEDDED_STORE_FILE = 'CURRENT';

/** The outside store a data folder follows ("<endpoint> <table>"), if it follows one. */
export const followed = (dataDir: string): string | undefined => {
  try {
    return readFileSync(join(dataDir, OUTSIDE_STORE_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
};

/**
 * Takes a data folder for a runtime on an outside store: the folder keeps the runtime's own files
 * (the change feed's journal, the creation secret, the development issuer's key), not the store's.
 * A journal is of one store's writes, so the folder follows the store and table it was first used
 * with, and is refused with another, or when it holds the embedded store. Gives back the release.
 */
export function followOutsideStore(dataDir: string, endpoint: string, tableName: string): () => void {
  const unlock = lockFolder(dataDir);
  try {
    const store = `${endpoint} ${tableName}`;
    const kept = followed(dataDir);
    if (kept === undefined && existsSync(join(dataDir, EMBEDDED_STORE_FILE))) {
      throw new Error(
        `The data folder ${dataDir} holds the embedded store's games: with DYNAMODB_ENDPOINT, give --data a folder of its own (it keeps the change feed's journal and the runtime's keys).`,
      );
    }
    if (kept !== undefined && kept !== store) {
      const [was, table] = kept.split(' ');
      throw new Error(
        `The data folder ${dataDir} follows the table ${table} at ${was}, and its change feed's journal is of that store's writes: start on that store and table again, or give another folder.`,
      );
    }
    if (kept === undefined) place(join(dataDir, OUTSIDE_STORE_FILE), `${store}\n`, 0o600);
    return unlock;
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * An embedded DynamoDB-compatible store (dynalite) on a free loopback port, with the service's table
 * created as the stack creates it. In memory unless `dataDir` is given (not a folder that follows an
 * outside store: `followOutsideStore`).
 */
export async function startLocalStore(
  options: { dataDir?: string; tableName?: string } = {},
): Promise<LocalStore> {
  const unlock = options.dataDir ? lockFolder(options.dataDir) : () => {};
  const outside = options.dataDir && followed(options.dataDir);
  if (outside) {
    unlock();
    const [endpoint] = outside.split(' ');
    throw new Error(
      `The data folder ${options.dataDir} follows an outside store (DYNAMODB_ENDPOINT ${endpoint}): set DYNAMODB_ENDPOINT again to start on it, or give the embedded store another folder.`,
    );
  }
  const server: Server = dynalite({
    createTableMs: 0,
    ...(options.dataDir ? { path: options.dataDir } : {}),
  });
  answerThisMachineOnly(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tableName = options.tableName ?? LOCAL_TABLE;
  const readTableName = LOCAL_READ_TABLE;
  const { rebuild } = await ensureTables(endpoint, tableName, readTableName);
  return {
    endpoint,
    tableName,
    readTableName,
    rebuild,
    close: () =>
      new Promise<void>((done, reject) =>
        server.close((error) => {
          unlock();
          if (error) reject(error);
          else done();
        }),
      ),
  };
}
