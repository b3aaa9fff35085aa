/**
 * The read side in AWS: the read-model table, the projector, its stream mapping and failure queue,
 * its exact grants and its alarms.
 */
import { describe, expect, it } from 'vitest';
import { BY_RANK } from '../../functions/store/dailyModels.js';
import { BY_STATUS, READ_KEYS } from '../../functions/store/readModels.js';
import type { KlondikeStack } from '../../infra/stack.js';
import { grantsOf, resourcesOf, roleOf, statementsByRole, synthesize } from './harness.js';

const dev = () => synthesize();
const resources = () => dev().template.toJSON().Resources as Record<string, any>;
const idOf = (stack: KlondikeStack, construct: any) => stack.getLogicalId(construct.node.defaultChild);
const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });

const ids = (stack: KlondikeStack = dev().stack) => ({
  events: idOf(stack, stack.table),
  readModels: idOf(stack, stack.projections.table),
  projector: idOf(stack, stack.projections.projector),
  failures: idOf(stack, stack.projections.failures),
});

describe('the read-model table', () => {
  it('has the keys and the indexes of functions/store (byStatus, byRank), on-demand, encrypted, with PITR', () => {
    const table = resources()[ids().readModels];
    expect(table.Type).toBe('AWS::DynamoDB::GlobalTable');
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: READ_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: READ_KEYS.sortKey, KeyType: 'RANGE' },
    ]);
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: READ_KEYS.partitionKey, AttributeType: 'S' },
        { AttributeName: READ_KEYS.sortKey, AttributeType: 'S' },
        { AttributeName: BY_STATUS.partitionKey, AttributeType: 'S' },
        { AttributeName: BY_RANK.partitionKey, AttributeType: 'S' },
        { AttributeName: BY_RANK.sortKey, AttributeType: 'S' },
      ]),
    );
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      [BY_STATUS, BY_RANK].map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
      Replicas: [
        expect.objectContaining({
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      ],
    });
    // Nothing reads a stream of the read models.
    expect(table.Properties.StreamSpecification).toBeUndefined();
  });

  it('is kept or destroyed with the stack as the event table is', () => {
    for (const context of [{}, { stage: 'prod' }, { destroyOnRemoval: 'true' }]) {
      const { stack, template } = synthesize(context);
      const all = template.toJSON().Resources;
      const events = all[ids(stack).events];
      const readModels = all[ids(stack).readModels];
      expect(readModels.DeletionPolicy, JSON.stringify(context)).toBe(events.DeletionPolicy);
      expect(readModels.UpdateReplacePolicy).toBe(events.UpdateReplacePolicy);
      expect(readModels.Properties.Replicas[0].DeletionProtectionEnabled).toBe(
        events.Properties.Replicas[0].DeletionProtectionEnabled,
      );
    }
    expect(resources()[ids().readModels].DeletionPolicy).toBe('Retain');
    expect(
      synthesize({ destroyOnRemoval: 'true' }).template.toJSON().Resources[ids().readModels],
    ).toMatchObject({
      DeletionPolicy: 'Delete',
    });
  });
});

describe('the projector', () => {
  it('runs as the routes do (Node.js 24, arm64), for a minute, with both table names and no issuer', () => {
    const { stack } = dev();
    const fn = resources()[ids().projector];
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 512,
      Timeout: 60,
    });
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: ids().events },
      READ_TABLE_NAME: { Ref: ids().readModels },
      NODE_OPTIONS: '--enable-source-maps',
      LOG_LEVEL: 'INFO',
    });
    const group = resources()[fn.Properties.LoggingConfig.LogGroup.Ref];
    expect(group.Type).toBe('AWS::Logs::LogGroup');
    expect(group.Properties.RetentionInDays).toBe(7);
    // Its own log group, not one of a route's.
    const routeGroups = [...stack.functions.values()].map(
      (route) => resources()[idOf(stack, route)].Properties.LoggingConfig.LogGroup.Ref,
    );
    expect(routeGroups).not.toContain(fn.Properties.LoggingConfig.LogGroup.Ref);
    expect(resources()[roleOf(dev().template, ids().projector)].Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('reads the stream and the log, writes only the read-model table, sends only to its failure queue', () => {
    const { template } = dev();
    const fn = resources()[ids().projector];
    const logGroup = getAtt(fn.Properties.LoggingConfig.LogGroup.Ref);
    const on = (actions: string[], resource: unknown) =>
      actions.map((action) => `${action} on ${JSON.stringify(resource)}`);
    expect(grantsOf(statementsByRole(template).get(roleOf(template, ids().projector))!)).toEqual(
      [
        ...on(['logs:CreateLogStream', 'logs:PutLogEvents'], logGroup),
        ...on(
          ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
          getAtt(ids().events, 'StreamArn'),
        ),
        // ListStreams takes no resource (acknowledged to cdk-nag as IAM5 with that reason).
        ...on(['dynamodb:ListStreams'], '*'),
        ...on(['dynamodb:GetItem', 'dynamodb:Query'], getAtt(ids().events)),
        ...on(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'], getAtt(ids().readModels)),
        ...on(['sqs:SendMessage'], getAtt(ids().failures)),
      ].sort(),
    );
  });

  it("consumes the stream from TRIM_HORIZON, in order, with batch item failures, bisection, bounded retries and age, a failure queue, and only the items of players' games", () => {
    const mappings = resourcesOf(dev().template, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    const [[, mapping]] = mappings as [[string, any]];
    expect(mapping.Properties).toEqual({
      EventSourceArn: getAtt(ids().events, 'StreamArn'),
      FunctionName: { Ref: ids().projector },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 3600,
      ParallelizationFactor: 1,
      DestinationConfig: { OnFailure: { Destination: getAtt(ids().failures) } },
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ dynamodb: { NewImage: { owner: { S: [{ exists: true }] } } } }) },
          { Pattern: JSON.stringify({ dynamodb: { Keys: { pk: { S: [{ prefix: 'profile#' }] } } } }) },
        ],
      },
      Tags: expect.any(Array),
    });
    // The stream is the projector's alone.
    const streamReaders = [...statementsByRole(dev().template)].filter(([, statements]) =>
      grantsOf(statements).some((line) => line.includes('StreamArn')),
    );
    expect(streamReaders.map(([role]) => role)).toEqual([roleOf(dev().template, ids().projector)]);
  });

  it('gives up records to a queue that is encrypted, refuses plain HTTP and keeps messages 14 days', () => {
    const queue = resources()[ids().failures];
    expect(queue.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    const policies = resourcesOf(dev().template, 'AWS::SQS::QueuePolicy').filter(([, p]) =>
      JSON.stringify(p.Properties!.Queues).includes(ids().failures),
    );
    expect(policies).toHaveLength(1);
    expect(policies[0]![1].Properties!.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sqs:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });
});

describe('the read side alarms', () => {
  const alarms = () => resourcesOf(dev().template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
  const onProjector = (metric: string) =>
    alarms().filter(
      (a) =>
        a.Namespace === 'AWS/Lambda' &&
        a.MetricName === metric &&
        JSON.stringify(a.Dimensions) ===
          JSON.stringify([{ Name: 'FunctionName', Value: { Ref: ids().projector } }]),
    );

  it('fire when the projector is a minute behind the stream (its worst iterator age in 5 minutes)', () => {
    const [age, ...more] = onProjector('IteratorAge');
    expect(more).toEqual([]);
    expect(age).toMatchObject({
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 60_000,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('fire on any projector error or throttle, and on any message in the failure queue', () => {
    for (const metric of ['Errors', 'Throttles']) {
      expect(onProjector(metric), metric).toEqual([
        expect.objectContaining({ Statistic: 'Sum', Threshold: 1, Period: 300 }),
      ]);
    }
    const queued = alarms().filter(
      (a) =>
        a.Namespace === 'AWS/SQS' &&
        a.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        JSON.stringify(a.Dimensions) ===
          JSON.stringify([{ Name: 'QueueName', Value: getAtt(ids().failures, 'QueueName') }]),
    );
    expect(queued).toEqual([expect.objectContaining({ Statistic: 'Maximum', Threshold: 1 })]);
    const readModelThrottles = alarms().filter((a) =>
      (a.Metrics ?? []).some(
        (m: any) =>
          m.MetricStat?.Metric.MetricName === 'ThrottledRequests' &&
          JSON.stringify(m.MetricStat.Metric.Dimensions).includes(ids().readModels),
      ),
    );
    expect(readModelThrottles).toHaveLength(1);
  });
});

describe('the read side outputs', () => {
  it('name the read-model table', () => {
    dev().template.hasOutput('ReadModelTableName', { Value: { Ref: ids().readModels } });
  });
});
