/**
 * The read side (docs/api.md, DESIGN.md): the read-model table, and the projector that keeps
 * it from the event table's change stream. Lambda polls the stream for the projector (an event
 * source mapping); a batch that keeps failing is given up after bounded retries or a maximum record
 * age, and a message saying which records were skipped goes to a queue an operator reads.
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import {
  type EventSourceMapping,
  FilterCriteria,
  FilterRule,
  type Function as LambdaFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PROJECTOR_ENTRY, TABLE_ENV } from '../functions/routes.js';
import { BY_RANK } from '../functions/store/dailyModels.js';
import { BY_STATUS, READ_KEYS, READ_TABLE_ENV } from '../functions/store/readModels.js';
import { PROJECTOR_ACTIONS } from './access.js';
import { allow, serviceFunction } from './functions.js';

/**
 * How the projector consumes the stream. The projector is idempotent and projects each game from its
 * log as it stands, so a retry or a duplicate is harmless, and a game whose record was given up is
 * mended by its next record (or by `npm run rebuild-projections`).
 */
export const STREAM_CONSUMPTION = {
  /** Lambda's default for DynamoDB: the projector loads each game of a batch once, however many records. */
  batchSize: 100,
  /** Enough for a store outage of minutes (the record age below bounds it in time), few enough to end. */
  retryAttempts: 10,
  /**
   * A record still failing after an hour is given up (to the failure queue), so one bad game cannot
   * hold its shard for the stream's 24 hours of retention.
   */
  maxRecordAge: Duration.hours(1),
  /** One batch at a time per shard: the records of a game reach the projector in order. */
  parallelizationFactor: 1,
} as const;

/** A batch of 100 distinct games is 100 loads and up to 300 writes and queries of a few ms each. */
export const PROJECTOR_TIMEOUT = Duration.seconds(60);

export interface ProjectionsProps {
  /** The event table, with its stream on (NEW_IMAGE). */
  readonly events: TableV2;
  readonly projectRoot: string;
  readonly keepData: boolean;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
  readonly logRemoval: RemovalPolicy;
}

export class Projections extends Construct {
  /** The players' games and statistics (functions/store/readModels.ts). */
  readonly table: TableV2;
  /** The ARN of each index, for the routes that query it. */
  readonly indexArns: Readonly<Record<'byStatus' | 'byRank', string>>;
  readonly projector: LambdaFunction;
  readonly mapping: EventSourceMapping;
  /** Where the mapping says which records it gave up (shard and sequence numbers, not the records). */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: ProjectionsProps) {
    super(scope, id);
    const streamArn = props.events.tableStreamArn;
    if (!streamArn) throw new Error('the event table needs its stream (NEW_IMAGE) for the projector');

    // Like the event table: the read models can be rebuilt from the log, but a rebuild reads the
    // whole log, so they are kept and recoverable all the same.
    this.table = new TableV2(this, 'ReadModels', {
      partitionKey: { name: READ_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: READ_KEYS.sortKey, type: AttributeType.STRING },
      // A player's games by status; a day's winners in ranking order (sparse: attempts once won).
      globalSecondaryIndexes: [BY_STATUS, BY_RANK].map((index) => ({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      })),
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.keepData,
      removalPolicy: props.removalPolicy,
    });
    const indexArn = (name: string) => `${this.table.tableArn}/index/${name}`;
    this.indexArns = { byStatus: indexArn(BY_STATUS.indexName), byRank: indexArn(BY_RANK.indexName) };

    this.failures = new Queue(this, 'Failures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The longest SQS keeps a message: time to find the game and rebuild.
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.failures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself the end of the line: the stream mapping's on-failure destination, read by an operator (its depth has an alarm). A dead-letter queue behind it would be one more queue nobody reads.",
    });

    this.projector = serviceFunction(this, 'Projector', {
      entry: PROJECTOR_ENTRY,
      description: 'Projector: keeps the read models (players’ games, statistics) from the event stream',
      roleDescription:
        'Klondike projector: reads the event stream and the log, writes the read models, reports given-up records',
      projectRoot: props.projectRoot,
      timeout: PROJECTOR_TIMEOUT,
      logRetention: props.logRetention,
      logRemoval: props.logRemoval,
      environment: { [TABLE_ENV]: props.events.tableName, [READ_TABLE_ENV]: this.table.tableName },
      statements: [
        allow(PROJECTOR_ACTIONS.stream, [streamArn]),
        allow(PROJECTOR_ACTIONS.listStreams, ['*']),
        allow(PROJECTOR_ACTIONS.events, [props.events.tableArn]),
        allow(PROJECTOR_ACTIONS.readModels, [this.table.tableArn]),
        allow(PROJECTOR_ACTIONS.failures, [this.failures.queueArn]),
      ],
    });
    Validations.of(this.projector.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams takes no resource-level permission, and Lambda checks for it when it creates the stream mapping; it lists stream ARNs, no data. Every other grant names its table, stream or queue.',
    });

    this.mapping = this.projector.addEventSourceMapping('Stream', {
      eventSourceArn: streamArn,
      // From the oldest record the stream keeps: nothing written before the first deploy's mapping is missed.
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: STREAM_CONSUMPTION.batchSize,
      // The handler names the first record of each game it could not project; Lambda retries from
      // there, and a failing batch is halved until the failing game is alone.
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: STREAM_CONSUMPTION.retryAttempts,
      maxRecordAge: STREAM_CONSUMPTION.maxRecordAge,
      parallelizationFactor: STREAM_CONSUMPTION.parallelizationFactor,
      // Only the items of a player's game (each carries its owner) and a player's chosen name: an
      // anonymous game's records, and the other records beside the log, never invoke the projector.
      filters: [
        FilterCriteria.filter({ dynamodb: { NewImage: { owner: { S: FilterRule.exists() } } } }),
        FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: FilterRule.beginsWith('profile#') } } } }),
      ],
      // Our own destination rather than SqsDlq, which would also grant GetQueueAttributes and
      // GetQueueUrl: the role above sends messages and nothing else.
      onFailure: { bind: () => ({ destination: this.failures.queueArn }) },
    });
  }
}
