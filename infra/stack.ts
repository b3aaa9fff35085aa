/**
 * The whole service in one stack: the event table and its change stream, one function per route of
 * the route table, the HTTP API in front of them, the read side (./projections.ts: read models and
 * their projector), the players' user pool (./players.ts), the web client, alarms, and the outputs a
 * client needs.
 */

import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Tags,
  Token,
  Validations,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  Alarm,
  ComparisonOperator,
  type IAlarmAction,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import {
  AttributeType,
  Billing,
  Operation,
  StreamViewType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { OIDC_AUDIENCE_ENV, OIDC_ISSUER_ENV } from '../functions/http/identity.js';
import {
  FUNCTION_TIMEOUT_SECONDS,
  handlerEntry,
  ROUTES,
  type Route,
  routeKey,
  TABLE_ENV,
} from '../functions/routes.js';
import { CREATION_SECRET_ENV } from '../functions/store/creations.js';
import { READ_TABLE_ENV } from '../functions/store/readModels.js';
import { TABLE_KEYS } from '../functions/store/table.js';
import { READ_MODEL_ACTIONS, TABLE_ACTIONS } from './access.js';
import { PROJECT_ROOT } from './bundling.js';
import { ContextError, type StageConfig, topicRegion } from './config.js';
import { DailyDeals } from './daily.js';
import { allow, SOLVER_MEMORY_MB, serviceFunction } from './functions.js';
import { Players } from './players.js';
import { Projections, STREAM_CONSUMPTION } from './projections.js';
import { WebSite } from './site.js';

export { TABLE_ACTIONS } from './access.js';

const TIMEOUT = Duration.seconds(FUNCTION_TIMEOUT_SECONDS);
const ALARM_PERIOD = Duration.minutes(5);
/** The API's 5xx alarm fires above this share of requests (in per cent)... */
const SERVER_ERROR_PERCENT = 1;
/** ...when at least this many requests came in the period, so one failure at night is not 100 %. */
const SERVER_ERROR_MIN_REQUESTS = 20;
/**
 * The projector's iterator age alarm (the age of the newest record of its last batch, at its
 * worst in 5 minutes). A healthy mapping keeps it under a second, and the read models promise about
 * 2 s (docs/api.md), so a minute means the projector is falling behind or stuck on a failing
 * batch, while the maximum record age (an hour) leaves 59 minutes before any record is given up.
 */
export const ITERATOR_AGE_ALARM = Duration.minutes(1);

/** One access log line per request, as JSON, for CloudWatch Logs Insights. */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  error: '$context.error.message',
  integrationError: '$context.integrationErrorMessage',
} as const;

/**
 * Why a route has no API Gateway authorizer (cdk-nag's APIG4). The functions authorize themselves,
 * with the same code as under `npm start`: an authorizer would answer its own 401 body instead of
 * problem+json, and could not express "this game's token, or its owner's JWT".
 */
export function authorizationReason(route: Route): string {
  if (route.path === '$default')
    return 'The catch-all route only answers 404 (problem+json) and touches no data.';
  if (route.path.startsWith('/games/')) {
    return "Authorization is per game, not per caller: the handler accepts the game's bearer token (only its hash is stored) or its owner's JWT, and answers 401/403 itself; finished games are public (docs/api.md). An API Gateway authorizer would need its own table read and cannot express that.";
  }
  if (route.name === 'getDaily' || route.name === 'leaderboard') {
    return "Public (docs/api.md, the daily deal): today's standing and a day's leaderboard show no card, no sub and, while the day lasts, no game id; a sign-in token sent along is verified by the handler itself.";
  }
  if (route.readModels || route.path.startsWith('/me/') || route.path.startsWith('/daily/')) {
    return "The handler requires a player's JWT and verifies it itself (functions/http/identity.ts: the pool's JWKS, iss, aud or client_id, exp, nbf, RS256/ES256), answering 401 as problem+json, the same code as under npm start; a JWT authorizer would answer its own 401 body.";
  }
  return 'Public by design: creating a game (with or without a JWT), checking a replay and reading the API description need no identity (docs/api.md).';
}

export interface KlondikeStackProps extends StackProps {
  readonly config: StageConfig;
  /** Where handler entries and package-lock.json live. Default: this repository. */
  readonly projectRoot?: string;
}

/**
 * A sum of per-operation metrics (the CDK's `...ForOperations`) in which an operation with no figure
 * counts 0. DynamoDB publishes throttles and system errors only when they happen, and in CloudWatch's
 * metric math a sum with a term missing has no value: one operation throttled alone would alarm
 * nothing.
 */
function filledSum(sum: IMetric): MathExpression {
  const { usingMetrics, label, period } = sum as MathExpression;
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics,
    period,
    ...(label ? { label } : {}),
  });
}

export class KlondikeStack extends Stack {
  readonly config: StageConfig;
  readonly table: TableV2;
  /** The read models, their projector, its stream mapping and its failure queue. */
  readonly projections: Projections;
  /** The user pool and the app client that players sign in with. */
  readonly players: Players;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The function of each route, by route name. */
  readonly functions: ReadonlyMap<string, LambdaFunction>;
  readonly alarms: readonly Alarm[];
  /** The web client: its bucket and the distribution in front of it and of the API. */
  readonly site: WebSite;
  /** The daily deals' hourly preparation and its alarm. */
  readonly daily: DailyDeals;
  /** What keys the records of games created under an Idempotency-Key (functions/store/creations.ts). */
  readonly creationSecret: Secret;

  constructor(scope: Construct, id: string, props: KlondikeStackProps) {
    const { config, projectRoot = PROJECT_ROOT, ...stackProps } = props;
    super(scope, id, {
      description: `Klondike solitaire backend (${config.stage}): HTTP API, one Lambda per route, DynamoDB event log`,
      terminationProtection: config.stage === 'prod',
      ...stackProps,
    });
    this.config = config;
    const keepData = !config.destroyOnRemoval;
    const dataRemoval = keepData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    Tags.of(this).add('service', 'klondike');
    Tags.of(this).add('stage', config.stage);

    this.table = new TableV2(this, 'Events', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.NUMBER },
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: keepData,
      removalPolicy: dataRemoval,
      // The projector's feed: each appended item as written (it reads the log itself for the rest).
      dynamoStream: StreamViewType.NEW_IMAGE,
    });

    // Kept with the data: a new secret only forgets the records it keyed (a retry then deals anew).
    // The functions that create games have it in their environment, resolved at deployment (a
    // dynamic reference: the template holds none of it), so none of them reads Secrets Manager.
    this.creationSecret = new Secret(this, 'CreationSecret', {
      description: 'Klondike: keys the records of games created under an Idempotency-Key',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: dataRemoval,
    });
    Validations.of(this.creationSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Not rotated: a new creation secret only forgets the records of keyed creations (a retry of one then deals a new game), and nothing would read an old one.',
    });

    // Logs are bounded by their retention; only production keeps them after the stack is gone.
    const logRemoval = config.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.players = new Players(this, 'Players', { stage: config.stage, keepData });
    this.projections = new Projections(this, 'Projections', {
      events: this.table,
      projectRoot,
      keepData,
      removalPolicy: dataRemoval,
      logRetention: config.logRetention,
      logRemoval,
    });

    const functions = new Map<string, LambdaFunction>();
    for (const route of ROUTES) functions.set(route.name, this.routeFunction(route, projectRoot, logRemoval));
    this.functions = functions;

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: config.logRetention,
      removalPolicy: logRemoval,
    });
    this.api = new HttpApi(this, 'Api', {
      apiName: `klondike-${config.stage}`,
      description: 'Klondike solitaire: deal, play, undo, replay',
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [...config.corsOrigins],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.OPTIONS],
        allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key'],
        exposeHeaders: ['ETag', 'Location', 'Retry-After', 'Idempotent-Replayed'],
        maxAge: Duration.hours(1),
      },
    });
    // A stage of our own rather than the API's implicit one: the L2 default stage takes neither
    // throttling nor access logs.
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.throttleRate, burstLimit: config.throttleBurst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    // Escape hatch: per-route settings exist only on the L1 stage (a JSON map keyed by route key,
    // written as CloudFormation spells it). Routes anyone may call that cost CPU get their own share
    // of the stage's throughput (see `throttleShare` in the route table).
    const cfnStage = this.stage.node.defaultChild as CfnStage;
    cfnStage.routeSettings = Object.fromEntries(
      ROUTES.filter((route) => route.throttleShare !== undefined).map((route) => [
        routeKey(route),
        {
          ThrottlingRateLimit: Math.max(1, config.throttleRate * route.throttleShare!),
          ThrottlingBurstLimit: Math.max(1, Math.floor(config.throttleBurst * route.throttleShare!)),
        },
      ]),
    );

    for (const route of ROUTES) {
      const fn = functions.get(route.name)!;
      const integration = new HttpLambdaIntegration(`${route.name}Integration`, fn, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      });
      const httpRoute =
        route.path === '$default'
          ? new HttpRoute(this.api, `${route.name}Route`, {
              httpApi: this.api,
              routeKey: HttpRouteKey.DEFAULT,
              integration,
            })
          : this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration })[0];
      Validations.of(httpRoute!).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: authorizationReason(route),
      });
    }

    this.daily = new DailyDeals(this, 'Daily', {
      events: this.table,
      projectRoot,
      logRetention: config.logRetention,
      logRemoval,
    });

    this.alarms = this.createAlarms(config);

    this.site = new WebSite(this, 'Web', {
      api: this.api,
      logRetention: config.logRetention,
      projectRoot,
      signIn: {
        config: this.players.webSignIn(),
        // The page fetches its tokens from the pool domain's /oauth2/token.
        connectSources: [this.players.domain.baseUrl()],
      },
    });
    // The pool's client sends the player back to the page it signed in from, and only there.
    this.players.signInFrom(this.site.url);

    new CfnOutput(this, 'ApiUrl', {
      value: this.stage.url,
      description:
        'Base URL of the HTTP API (routes start with /games, /daily, /me, /replays, /openapi.json)',
    });
    new CfnOutput(this, 'WebUrl', {
      value: this.site.url,
      description:
        'The web client; the same distribution serves the API at /games, /daily, /me, /replays, /openapi.json',
    });
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: 'DynamoDB table holding the event log',
    });
    new CfnOutput(this, 'ReadModelTableName', {
      value: this.projections.table.tableName,
      description:
        "DynamoDB table holding the read models (players' games and statistics), kept by the projector",
    });
    new CfnOutput(this, 'ProjectionFailuresQueueUrl', {
      value: this.projections.failures.queueUrl,
      description:
        'SQS queue of the change-stream records the projector gave up on (alarm ProjectionFailures; docs/operations.md)',
    });
    new CfnOutput(this, 'UserPoolId', {
      value: this.players.userPool.userPoolId,
      description: 'Cognito user pool that players sign in to',
    });
    new CfnOutput(this, 'UserPoolClientId', {
      value: this.players.client.userPoolClientId,
      description:
        "The public app client (no secret; SRP, and ADMIN_USER_PASSWORD_AUTH for operators): the tokens' aud / client_id",
    });
    new CfnOutput(this, 'OidcIssuer', {
      value: this.players.issuer,
      description:
        "The tokens' iss (OIDC_ISSUER): the user pool's OpenID Connect issuer, which also serves its signing keys",
    });
  }

  private routeFunction(route: Route, projectRoot: string, logRemoval: RemovalPolicy): LambdaFunction {
    const statements = [];
    const tableActions = TABLE_ACTIONS[route.access];
    if (tableActions.length > 0) {
      const grant = allow(tableActions, [this.table.tableArn]);
      // Only the items its handler touches, where the route table names them.
      if (route.eventKeys)
        grant.addCondition('ForAllValues:StringLike', { 'dynamodb:LeadingKeys': [route.eventKeys] });
      statements.push(grant);
    }
    const readModels = route.readModels === 'read' ? this.projections : undefined;
    if (readModels) {
      statements.push(allow(READ_MODEL_ACTIONS.table, [readModels.table.tableArn]));
      if (route.readIndex)
        statements.push(allow(READ_MODEL_ACTIONS.index, [readModels.indexArns[route.readIndex]]));
    }
    return serviceFunction(this, route.name, {
      entry: handlerEntry(route),
      description: `${route.method} ${route.path}: ${route.summary}`,
      roleDescription: `Klondike ${route.method} ${route.path}: its own log group, table access '${route.access}'${readModels ? ', read models: read' : ''}`,
      projectRoot,
      timeout: TIMEOUT,
      ...(route.solver ? { memoryMb: SOLVER_MEMORY_MB } : {}),
      logRetention: this.config.logRetention,
      logRemoval,
      // Every route may meet a player's JWT (a game's routes take its owner's too), so every route
      // knows the issuer; only the routes that read the read models learn that table's name.
      environment: {
        [TABLE_ENV]: this.table.tableName,
        [OIDC_ISSUER_ENV]: this.players.issuer,
        [OIDC_AUDIENCE_ENV]: this.players.client.userPoolClientId,
        ...(readModels ? { [READ_TABLE_ENV]: readModels.table.tableName } : {}),
        ...(route.creates ? { [CREATION_SECRET_ENV]: this.creationSecret.secretValue.unsafeUnwrap() } : {}),
      },
      statements,
    });
  }

  private createAlarms(config: StageConfig): Alarm[] {
    const alarms: Alarm[] = [];
    const topic = config.alarmTopicArn;
    // An alarm notifies a topic of its own region only: refused here, not at deploy time.
    if (topic && !Token.isUnresolved(this.region) && topicRegion(topic) !== this.region) {
      throw new ContextError(
        `context alarmTopicArn=${JSON.stringify(topic)}: the topic is in ${topicRegion(topic)}, the stack in ${this.region}; CloudWatch alarms notify a topic of their own region`,
      );
    }
    const action: IAlarmAction | undefined = topic
      ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', topic))
      : undefined;
    const alarm = (id: string, metric: IMetric, description: string, threshold = 1): void => {
      const created = new Alarm(this, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      if (action) {
        created.addAlarmAction(action);
        created.addOkAction(action);
      }
      alarms.push(created);
    };

    alarm(
      'Api5xxRate',
      new MathExpression({
        expression: `IF(requests >= ${SERVER_ERROR_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: {
          errors: this.api.metricServerError({ period: ALARM_PERIOD, statistic: 'Sum' }),
          requests: this.api.metricCount({ period: ALARM_PERIOD, statistic: 'Sum' }),
        },
        period: ALARM_PERIOD,
        label: 'API 5xx (% of requests)',
      }),
      `More than ${SERVER_ERROR_PERCENT}% of API requests answered 5xx in 5 minutes (with at least ${SERVER_ERROR_MIN_REQUESTS} requests). Handlers answer 503 when the store is unavailable; see the access log and the function alarms.`,
      SERVER_ERROR_PERCENT,
    );

    for (const [name, fn] of this.functions) {
      alarm(
        `${name}Errors`,
        fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' }),
        `${name}: the function failed (uncaught error or timeout). Handlers map every expected failure to a response, so any error is a bug.`,
      );
      alarm(
        `${name}Throttles`,
        fn.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum' }),
        `${name}: Lambda throttled invocations (account or function concurrency limit reached).`,
      );
    }

    const { missing } = this.daily;
    if (action) {
      missing.addAlarmAction(action);
      missing.addOkAction(action);
    }
    alarms.push(missing);
    for (const [name, fn] of [['dailyPrepare', this.daily.prepare]] as const) {
      alarm(
        `${name}Errors`,
        fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' }),
        `${name}: the function failed (uncaught error or timeout).`,
      );
    }

    const { projector, failures } = this.projections;
    alarm(
      'ProjectorIteratorAge',
      projector.metric('IteratorAge', { period: ALARM_PERIOD, statistic: 'Maximum' }),
      `The projector is more than ${ITERATOR_AGE_ALARM.toSeconds()} s behind the event stream: the read models (/me/games, /me/stats) are stale. A failing batch is retried for up to ${STREAM_CONSUMPTION.maxRecordAge.toHumanString()} before its records are given up; see the projector's logs.`,
      ITERATOR_AGE_ALARM.toMilliseconds(),
    );
    alarm(
      'ProjectorErrors',
      projector.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' }),
      "The projector failed a whole batch (uncaught error or timeout); a game it cannot project is reported as a batch item failure instead and logged as 'projection failed'.",
    );
    alarm(
      'ProjectorThrottles',
      projector.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum' }),
      'Lambda throttled the projector (account concurrency): the read models fall behind.',
    );
    alarm(
      'ProjectionFailures',
      failures.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' }),
      "Stream records were given up by the projector's mapping after its retries or record age: some read models may be stale until that game's next event or `npm run rebuild-projections`. Each message names the shard and sequence numbers (docs/operations.md).",
    );

    const operations = [Operation.GET_ITEM, Operation.PUT_ITEM, Operation.QUERY];
    alarm(
      'TableThrottles',
      filledSum(this.table.metricThrottledRequestsForOperations({ operations, period: ALARM_PERIOD })),
      'DynamoDB throttled requests on the event table (clients get 503 with Retry-After).',
    );
    alarm(
      'TableSystemErrors',
      filledSum(this.table.metricSystemErrorsForOperations({ operations, period: ALARM_PERIOD })),
      'DynamoDB answered with internal server errors on the event table.',
    );
    alarm(
      'ReadModelThrottles',
      filledSum(
        this.projections.table.metricThrottledRequestsForOperations({ operations, period: ALARM_PERIOD }),
      ),
      'DynamoDB throttled requests on the read-model table (/me routes answer 503; the projector retries).',
    );
    return alarms;
  }
}
