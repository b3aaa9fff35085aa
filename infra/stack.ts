/**
 * The whole service in one stack: the event table, one function per route of the route table,
 * the HTTP API in front of them, alarms, and the two outputs a client needs (ApiUrl, TableName).
 */
import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
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
import { AttributeType, Billing, Operation, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { handlerEntry, ROUTES, type Route, routeKey, TABLE_ENV } from '../functions/routes.js';
import { TABLE_KEYS } from '../functions/store/table.js';
import { ESBUILD_OPTIONS, EXTERNAL_MODULES, MAIN_FIELDS, NODE_TARGET, PROJECT_ROOT } from './bundling.js';
import type { StageConfig } from './config.js';
import { WebSite } from './site.js';

/**
 * What each access level may do to the table, and nothing more. Written out rather than taken
 * from `grantReadData`/`grantWriteData`, which add Scan, BatchGetItem, DeleteItem and others that
 * no handler uses. The log is append-only, so no function can delete or update an item.
 */
export const TABLE_ACTIONS: Readonly<Record<Route['access'], readonly string[]>> = {
  none: [],
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  write: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
};

/** Lambda sizing: the fold of a game is CPU-bound and memory buys CPU; 10 s is far above p99. */
const MEMORY_MB = 512;
const TIMEOUT = Duration.seconds(10);
const ALARM_PERIOD = Duration.minutes(5);
/** The API's 5xx alarm fires above this share of requests (in per cent)... */
const SERVER_ERROR_PERCENT = 1;
/** ...when at least this many requests came in the period, so one failure at night is not 100 %. */
const SERVER_ERROR_MIN_REQUESTS = 20;

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

export interface KlondikeStackProps extends StackProps {
  readonly config: StageConfig;
  /** Where handler entries and package-lock.json live. Default: this repository. */
  readonly projectRoot?: string;
}

export class KlondikeStack extends Stack {
  readonly config: StageConfig;
  readonly table: TableV2;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The function of each route, by route name. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  readonly alarms: readonly Alarm[];
  /** The web client: its bucket and the distribution in front of it and of the API. */
  readonly site: WebSite;

  constructor(scope: Construct, id: string, props: KlondikeStackProps) {
    const { config, projectRoot = PROJECT_ROOT, ...stackProps } = props;
    super(scope, id, {
      description: `Klondike solitaire backend (${config.stage}): HTTP API, one Lambda per route, DynamoDB event log`,
      terminationProtection: config.stage === 'prod',
      ...stackProps,
    });
    this.config = config;
    const keepData = !config.destroyOnRemoval;
    Tags.of(this).add('service', 'klondike');
    Tags.of(this).add('stage', config.stage);

    this.table = new TableV2(this, 'Events', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.NUMBER },
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: keepData,
      removalPolicy: keepData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    // Logs are bounded by their retention; only production keeps them after the stack is gone.
    const logRemoval = config.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const functions = new Map<string, NodejsFunction>();
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
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.OPTIONS],
        allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key'],
        exposeHeaders: ['ETag', 'Location', 'Retry-After'],
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
        reason:
          route.access === 'none' && route.path === '$default'
            ? 'The catch-all route only answers 404 (problem+json) and touches no data.'
            : route.path.startsWith('/games/')
              ? "Authorization is per game, not per caller: the handler checks the game's bearer token (only its hash is stored) and answers 401/403 itself; finished games are public by contract. An API Gateway authorizer would need its own table read and cannot express that."
              : 'Public by contract: creating a game, checking a replay and reading the API description need no identity (CONTRACT.md section 3).',
      });
    }

    this.alarms = this.createAlarms(config);

    this.site = new WebSite(this, 'Web', { api: this.api, logRetention: config.logRetention, projectRoot });

    new CfnOutput(this, 'ApiUrl', {
      value: this.stage.url,
      description: 'Base URL of the HTTP API (routes start with /games, /replays, /openapi.json)',
    });
    new CfnOutput(this, 'WebUrl', {
      value: this.site.url,
      description: 'The web client; the same distribution serves the API at /games, /replays, /openapi.json',
    });
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: 'DynamoDB table holding the event log',
    });
  }

  private routeFunction(route: Route, projectRoot: string, logRemoval: RemovalPolicy): NodejsFunction {
    const logGroup = new LogGroup(this, `${route.name}Logs`, {
      retention: this.config.logRetention,
      removalPolicy: logRemoval,
    });
    // An explicit role instead of the default one: the default attaches the managed
    // AWSLambdaBasicExecutionRole, which may write to every log group of the account.
    const role = new Role(this, `${route.name}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Klondike ${route.method} ${route.path}: its own log group, table access '${route.access}'`,
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    const tableActions = TABLE_ACTIONS[route.access];
    if (tableActions.length > 0) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: [...tableActions],
          resources: [this.table.tableArn],
        }),
      );
    }

    return new NodejsFunction(this, route.name, {
      description: `${route.method} ${route.path}: ${route.summary}`,
      entry: join(projectRoot, handlerEntry(route)),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: MEMORY_MB,
      timeout: TIMEOUT,
      role,
      logGroup,
      environment: {
        [TABLE_ENV]: this.table.tableName,
        NODE_OPTIONS: '--enable-source-maps',
        LOG_LEVEL: 'INFO',
      },
      bundling: {
        format: OutputFormat.ESM,
        target: NODE_TARGET,
        minify: ESBUILD_OPTIONS.minify,
        sourceMap: ESBUILD_OPTIONS.sourcemap,
        sourcesContent: ESBUILD_OPTIONS.sourcesContent,
        mainFields: [...MAIN_FIELDS],
        banner: ESBUILD_OPTIONS.banner.js,
        externalModules: [...EXTERNAL_MODULES],
      },
    });
  }

  private createAlarms(config: StageConfig): Alarm[] {
    const alarms: Alarm[] = [];
    const action: IAlarmAction | undefined = config.alarmTopicArn
      ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', config.alarmTopicArn))
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

    const operations = [Operation.GET_ITEM, Operation.PUT_ITEM, Operation.QUERY];
    alarm(
      'TableThrottles',
      this.table.metricThrottledRequestsForOperations({ operations, period: ALARM_PERIOD }),
      'DynamoDB throttled requests on the event table (clients get 503 with Retry-After).',
    );
    alarm(
      'TableSystemErrors',
      this.table.metricSystemErrorsForOperations({ operations, period: ALARM_PERIOD }),
      'DynamoDB answered with internal server errors on the event table.',
    );
    return alarms;
  }
}
