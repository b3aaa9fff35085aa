/**
 * What each function may do to the tables and the stream, written out rather than taken from the
 * CDK's `grant*` helpers: `grantReadData`/`grantWriteData` add Scan, BatchGetItem, DeleteItem and
 * others that no handler uses, and `grantStreamRead`/`SqsDlq` add grants of their own. The stack
 * and the tests read these lists, so a grant cannot change in one place only.
 */
import type { Route } from '../functions/routes.js';

/**
 * The event table, by a route's access level. The log is append-only: no function may delete or
 * update an item, and every put of a game's items is conditional on its key being new (IAM cannot
 * require that: the code does, docs/operations.md).
 */
export const TABLE_ACTIONS: Readonly<Record<Route['access'], readonly string[]>> = {
  none: [],
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  write: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
};

/** The daily deals' schedule: it reads the day records and writes a new one with a conditional put. */
export const DAILY_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;

/**
 * The read-model table, for the routes that read it (`readModels: 'read'`): GetItem (a player's
 * statistics, an attempt) and Query on the table (their games, a day's counts), and Query on the one
 * index a route names (`readIndex`: `byStatus` for games by status, `byRank` for leaderboards;
 * GetItem does not apply to an index). Only the projector writes it.
 */
export const READ_MODEL_ACTIONS = {
  table: ['dynamodb:GetItem', 'dynamodb:Query'],
  index: ['dynamodb:Query'],
} as const;

/**
 * The projector: it reads each game's log as it stands and the players' chosen names (the event
 * table, `read`), and keeps the read models (`write` on the read-model table: conditional PutItem,
 * the consistent Query of a player's rows to recompute their statistics and of a daily shard to
 * recount it, GetItem). It needs no index: it queries the table.
 */
export const PROJECTOR_ACTIONS = {
  events: TABLE_ACTIONS.read,
  readModels: TABLE_ACTIONS.write,
  /** What Lambda's event source mapping does with the function's role to poll the stream. */
  stream: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
  /**
   * Lambda checks for it when it creates the mapping; it takes no resource-level permission (the
   * Service Authorization Reference lists none), so it is granted on `*`: it names stream ARNs, no data.
   */
  listStreams: ['dynamodb:ListStreams'],
  /** The on-failure destination: a message saying which records were given up. */
  failures: ['sqs:SendMessage'],
} as const;
