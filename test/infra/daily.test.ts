import { describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_ENV } from '../../functions/clock.js';
import { METRIC } from '../../functions/schedule/prepareDaily.js';
import { grantsOf, resourcesOf, roleOf, statementsByRole, synthesize } from './harness.js';

/** The daily deals in the stack (docs/api.md): the schedule, its function, its alarm, the index. */
describe('the daily deals', () => {
  const { template, stack } = synthesize();
  const all = template.toJSON().Resources;
  const id = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as any);
  const prepareId = id(stack.daily.prepare);
  const eventTable = JSON.stringify({ 'Fn::GetAtt': [id(stack.table), 'Arn'] });

  it('are prepared every hour by EventBridge Scheduler, invoking the function itself and nothing else', () => {
    const schedules = resourcesOf(template, 'AWS::Scheduler::Schedule');
    expect(schedules).toHaveLength(1);
    const [, schedule] = schedules[0]!;
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'cron(0 * * * ? *)',
      State: 'ENABLED',
      Target: { Arn: { 'Fn::GetAtt': [prepareId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2 } },
    });
    const roleId = schedule.Properties!.Target.RoleArn['Fn::GetAtt'][0];
    expect(grantsOf(statementsByRole(template).get(roleId)!)).toEqual([
      `lambda:InvokeFunction on ${JSON.stringify({ 'Fn::GetAtt': [prepareId, 'Arn'] })}`,
    ]);
    // The schedule's retries are of its delivery; a run that fails is run again by Lambda.
    const retries = resourcesOf(template, 'AWS::Lambda::EventInvokeConfig').filter(
      ([, config]) => config.Properties!.FunctionName.Ref === prepareId,
    );
    expect(retries.map(([, config]) => config.Properties)).toEqual([
      expect.objectContaining({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 1800 }),
    ]);
  });

  it('the preparing function may read the day records and put new ones, and write its own logs; nothing else', () => {
    const logGroup = JSON.stringify({
      'Fn::GetAtt': [all[prepareId].Properties.LoggingConfig.LogGroup.Ref, 'Arn'],
    });
    expect(grantsOf(statementsByRole(template).get(roleOf(template, prepareId))!)).toEqual(
      [
        `dynamodb:GetItem on ${eventTable}`,
        `dynamodb:PutItem on ${eventTable}`,
        `logs:CreateLogStream on ${logGroup}`,
        `logs:PutLogEvents on ${logGroup}`,
      ].sort(),
    );
    expect(all[prepareId].Properties).toMatchObject({ Runtime: 'nodejs24.x', MemorySize: 1769, Timeout: 30 });
  });

  it("alarm when tomorrow's deal is missing an hour before midnight, or the preparation stops reporting", () => {
    const [alarm] = resourcesOf(template, 'AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties!.MetricName === METRIC.name,
    );
    expect(alarm![1].Properties).toMatchObject({
      Namespace: METRIC.namespace,
      // The stage's own figure (the function reports its event table's name).
      Dimensions: [{ Name: METRIC.dimension, Value: stack.resolve(stack.table.tableName) }],
      Statistic: 'Maximum',
      Period: 3600,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'breaching',
    });
  });

  it('rank a day on a sparse index of the read models, which only the routes that show it query', () => {
    const readTable = all[id(stack.projections.table)];
    expect(readTable.Properties.GlobalSecondaryIndexes).toContainEqual(
      expect.objectContaining({
        IndexName: 'byRank',
        KeySchema: [
          { AttributeName: 'board', KeyType: 'HASH' },
          { AttributeName: 'rank', KeyType: 'RANGE' },
        ],
      }),
    );
    const byRank = stack.resolve(stack.projections.indexArns.byRank);
    const readers = [...statementsByRole(template)]
      .filter(([, statements]) => grantsOf(statements).some((line) => line.includes(JSON.stringify(byRank))))
      .map(([role]) => role)
      .sort();
    expect(readers).toEqual(
      ['getDaily', 'leaderboard'].map((name) => roleOf(template, id(stack.functions.get(name)!))).sort(),
    );
  });

  it("take a player's chosen name to the projector, and never move any function's clock", () => {
    const [, mapping] = resourcesOf(template, 'AWS::Lambda::EventSourceMapping')[0]!;
    const patterns = mapping.Properties!.FilterCriteria.Filters.map((f: { Pattern: string }) =>
      JSON.parse(f.Pattern),
    );
    expect(patterns).toContainEqual({ dynamodb: { Keys: { pk: { S: [{ prefix: 'profile#' }] } } } });
    for (const [name, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
      expect(Object.keys(fn.Properties?.Environment?.Variables ?? {}), name).not.toContain(CLOCK_OFFSET_ENV);
    }
  });
});
