/**
 * The daily deal's schedule (docs/api.md): a function that prepares today's and tomorrow's
 * deals ahead of their first request, run every hour by EventBridge Scheduler, and an alarm when
 * tomorrow's deal is still missing an hour before midnight (UTC), or the function stops reporting.
 */

import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { PREPARE_DAILY_ENTRY, TABLE_ENV } from '../functions/routes.js';
import { METRIC } from '../functions/schedule/prepareDaily.js';
import { DAILY_ACTIONS } from './access.js';
import { allow, SOLVER_MEMORY_MB, serviceFunction } from './functions.js';

/**
 * The schedule invokes the function itself, never a version or alias: `grantInvoke` would grant
 * `<function>:*` as well, the one wildcard cdk-nag would have to be told about.
 */
class InvokeFunction extends LambdaInvoke {
  constructor(
    private readonly target: LambdaFunction,
    props: ConstructorParameters<typeof LambdaInvoke>[1],
  ) {
    super(target, props);
  }
  protected override addTargetActionToRole(role: IRole): void {
    role.addToPrincipalPolicy(allow(['lambda:InvokeFunction'], [this.target.functionArn]));
  }
}

export interface DailyDealsProps {
  readonly events: TableV2;
  readonly projectRoot: string;
  readonly logRetention: RetentionDays;
  readonly logRemoval: RemovalPolicy;
}

export class DailyDeals extends Construct {
  readonly prepare: LambdaFunction;
  readonly schedule: Schedule;
  /** Tomorrow's deal missing at 23:00 UTC, or no report from the function for an hour. */
  readonly missing: Alarm;

  constructor(scope: Construct, id: string, props: DailyDealsProps) {
    super(scope, id);
    this.prepare = serviceFunction(this, 'Prepare', {
      entry: PREPARE_DAILY_ENTRY,
      description:
        "Prepares today's and tomorrow's daily deals (proved winnable) ahead of their first request",
      roleDescription:
        'Klondike daily deals: reads and conditionally puts the day records of the event table',
      projectRoot: props.projectRoot,
      // The solver's 2.5 s, a whole vCPU as for the routes that run it.
      timeout: Duration.seconds(30),
      memoryMb: SOLVER_MEMORY_MB,
      logRetention: props.logRetention,
      logRemoval: props.logRemoval,
      environment: { [TABLE_ENV]: props.events.tableName },
      statements: [allow(DAILY_ACTIONS, [props.events.tableArn])],
    });
    this.schedule = new Schedule(this, 'Hourly', {
      description:
        'Prepares the daily deals ahead of time; the first request of a day that has none draws it',
      schedule: ScheduleExpression.cron({ minute: '0' }),
      // The schedule's retries are of its delivery; a run that fails is retried by Lambda (below).
      target: new InvokeFunction(this.prepare, { retryAttempts: 2, maxEventAge: Duration.minutes(30) }),
    });
    // A failed run (an error thrown after its metric) is run again twice, within the half hour: the
    // next hour's run comes anyway, and a retry later than that would only double it.
    this.prepare.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.minutes(30) });
    this.missing = new Alarm(this, 'NextDealMissing', {
      metric: new Metric({
        namespace: METRIC.namespace,
        metricName: METRIC.name,
        dimensionsMap: { [METRIC.dimension]: props.events.tableName },
        period: Duration.hours(1),
        statistic: 'Maximum',
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // The function reports every hour: no report at all means the schedule or the function is broken.
      treatMissingData: TreatMissingData.BREACHING,
      alarmDescription:
        "Tomorrow's daily deal is not prepared an hour before midnight (UTC), or the hourly preparation stopped reporting. Without it, the first request of the day draws and proves the deal itself (players wait up to 2.5 s); see the Prepare function's logs.",
    });
  }
}
