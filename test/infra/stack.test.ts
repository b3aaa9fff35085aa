import { App } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../functions/routes.js';
import { configFromContext } from '../../infra/config.js';
import { KlondikeStack } from '../../infra/stack.js';
import { grantsOf, resourcesOf, roleOf, statementsByRole, synthesize } from './harness.js';

const dev = () => synthesize();

/**
 * The functions of the routes: every function but the CDK's own (BucketDeployment's handler and the
 * one that empties the site's bucket: see site.test.ts), the projector (see projections.test.ts) and
 * the daily deals' (see daily.test.ts).
 */
const routeFunctions = (template: Template) =>
  resourcesOf(template, 'AWS::Lambda::Function').filter(
    ([id]) =>
      !id.startsWith('CustomCDKBucketDeployment') &&
      !id.startsWith('CustomS3AutoDeleteObjects') &&
      !id.startsWith('ProjectionsProjector') &&
      !id.startsWith('DailyPrepare'),
  );

const logicalIdOf = (stack: KlondikeStack, name: string): string =>
  stack.getLogicalId(stack.functions.get(name)!.node.defaultChild as CfnFunction);

const eventTableId = (stack: KlondikeStack) => stack.getLogicalId(stack.table.node.defaultChild as any);

describe('the event table', () => {
  it('has pk (string) and sk (number), on-demand billing, PITR, AWS-managed encryption and a NEW_IMAGE stream', () => {
    const { template, stack } = dev();
    const table = template.toJSON().Resources[eventTableId(stack)];
    expect(table.Type).toBe('AWS::DynamoDB::GlobalTable');
    expect(table.Properties).toMatchObject({
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
      Replicas: [
        expect.objectContaining({
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      ],
      // The projector's feed: the item as appended, nothing of what it replaced (the log never replaces).
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'N' },
      ]),
    );
    expect(table.Properties.SSESpecification.KMSMasterKeyId).toBeUndefined();
    // The event table and the read-model table (projections.test.ts), both TableV2.
    expect(resourcesOf(template, 'AWS::DynamoDB::GlobalTable')).toHaveLength(2);
    expect(resourcesOf(template, 'AWS::DynamoDB::Table')).toHaveLength(0);
  });

  it('is retained and protected by default and in prod', () => {
    for (const { template } of [dev(), synthesize({ stage: 'prod' })]) {
      template.hasResource('AWS::DynamoDB::GlobalTable', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
    expect(synthesize({ stage: 'prod' }).stack.terminationProtection).toBe(true);
  });

  it('may be destroyed with a dev stack when the context says so, never with prod', () => {
    const { template } = synthesize({ stage: 'dev', destroyOnRemoval: 'true' });
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
    expect(() => synthesize({ stage: 'prod', destroyOnRemoval: true })).toThrow(/destroyOnRemoval/);
  });
});

describe('the functions', () => {
  it('are one per route, on Node.js 24 arm64, with the table name, the issuer and source maps', () => {
    const { template, stack } = dev();
    expect(routeFunctions(template)).toHaveLength(ROUTES.length);
    const tableId = eventTableId(stack);
    const readTableId = stack.getLogicalId(stack.projections.table.node.defaultChild as any);
    const issuer = stack.resolve(stack.players.issuer);
    const audience = stack.resolve(stack.players.client.userPoolClientId);
    const secretId = stack.getLogicalId(stack.creationSecret.node.defaultChild as any);
    expect(issuer['Fn::Join'][1]).toContainEqual({
      Ref: stack.getLogicalId(stack.players.userPool.node.defaultChild as any),
    });
    for (const route of ROUTES) {
      const fn = template.toJSON().Resources[logicalIdOf(stack, route.name)];
      expect(fn.Properties, route.name).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: route.solver ? 1769 : 512,
        Timeout: 10,
      });
      // The read-model table's name only where the route reads it.
      expect(fn.Properties.Environment.Variables, route.name).toEqual({
        TABLE_NAME: { Ref: tableId },
        OIDC_ISSUER: issuer,
        OIDC_AUDIENCE: audience,
        ...(route.readModels ? { READ_TABLE_NAME: { Ref: readTableId } } : {}),
        // The creation secret where games are dealt under an Idempotency-Key: a dynamic reference,
        // resolved at deployment, so that the template holds none of it.
        ...(route.creates
          ? {
              CREATION_SECRET: {
                'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
              },
            }
          : {}),
        NODE_OPTIONS: '--enable-source-maps',
        LOG_LEVEL: 'INFO',
      });
    }
    expect(ROUTES.filter((route) => route.readModels).map((route) => route.name)).toEqual([
      'myGames',
      'myStats',
      'getDaily',
      'leaderboard',
    ]);
    expect(ROUTES.filter((route) => route.creates).map((route) => route.name)).toEqual([
      'createGame',
      'createDailyGame',
    ]);
    // The routes that run the solver get a whole vCPU, so its budgets mean what they do on a laptop.
    expect(ROUTES.filter((route) => route.solver).map((route) => route.name)).toEqual([
      'createGame',
      'hint',
      'analysis',
      'autoplay',
      'autocomplete',
      'createDailyGame',
    ]);
  });

  it('each log to a log group of their own, with the stage retention', () => {
    const { template, stack } = dev();
    const groups = new Set<string>();
    for (const route of ROUTES) {
      const fn = template.toJSON().Resources[logicalIdOf(stack, route.name)];
      const group = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      groups.add(group);
      expect(template.toJSON().Resources[group].Properties.RetentionInDays).toBe(7);
    }
    expect(groups.size).toBe(ROUTES.length);
    const prod = synthesize({ stage: 'prod', logRetentionDays: '90' }).template;
    for (const [, group] of resourcesOf(prod, 'AWS::Logs::LogGroup')) {
      expect(group.Properties!.RetentionInDays).toBe(90);
      expect(group.DeletionPolicy).toBe('Retain');
    }
  });

  it('hold exactly their grants: the event table by access level, the read models only to read, their own logs', () => {
    const { template, stack } = dev();
    const roles = statementsByRole(template);
    const ref = (id: string, attribute = 'Arn') => JSON.stringify({ 'Fn::GetAtt': [id, attribute] });
    const eventTable = ref(eventTableId(stack));
    const readTableId = stack.getLogicalId(stack.projections.table.node.defaultChild as any);
    const readTable = ref(readTableId);
    const index = (name: string) =>
      JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [readTableId, 'Arn'] }, `/index/${name}`]] });
    const onTable = {
      none: [],
      read: ['dynamodb:GetItem', 'dynamodb:Query'],
      write: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
    };
    for (const route of ROUTES) {
      const fnId = logicalIdOf(stack, route.name);
      const roleId = roleOf(template, fnId);
      const logGroup = ref(template.toJSON().Resources[fnId].Properties.LoggingConfig.LogGroup.Ref);
      const expected = [
        `logs:CreateLogStream on ${logGroup}`,
        `logs:PutLogEvents on ${logGroup}`,
        ...onTable[route.access].map(
          (action) => `${action} on ${eventTable}${route.eventKeys ? ` for keys ${route.eventKeys}` : ''}`,
        ),
        ...(route.readModels ? [`dynamodb:GetItem on ${readTable}`, `dynamodb:Query on ${readTable}`] : []),
        ...(route.readIndex ? [`dynamodb:Query on ${index(route.readIndex)}`] : []),
      ].sort();
      expect(grantsOf(roles.get(roleId)!), route.name).toEqual(expected);
      expect(template.toJSON().Resources[roleId].Properties.ManagedPolicyArns, route.name).toBeUndefined();
    }
    // The profile's routes touch nothing of the log but the players' names: their grants say so.
    for (const name of ['getProfile', 'putProfile']) {
      const lines = grantsOf(roles.get(roleOf(template, logicalIdOf(stack, name)))!);
      const onLog = lines.filter((line) => line.includes(eventTable));
      expect(onLog.length, name).toBeGreaterThan(0);
      for (const line of onLog) expect(line, name).toMatch(/ for keys profile#\*$/);
    }
  });

  it('can never delete, update, scan or batch anything, and no policy uses a wildcard action', () => {
    const { template } = dev();
    const roles = statementsByRole(template);
    const all = [
      ...routeFunctions(template),
      ...resourcesOf(template, 'AWS::Lambda::Function').filter(
        ([id]) => id.startsWith('ProjectionsProjector') || id.startsWith('DailyPrepare'),
      ),
    ];
    expect(all).toHaveLength(ROUTES.length + 2);
    for (const [id] of all) {
      for (const line of grantsOf(roles.get(roleOf(template, id))!)) {
        expect(line.split(' on ')[0], id).not.toMatch(/Delete|Update|Scan|Batch|Transact|PartiQL|\*/);
      }
    }
  });

  it("let no role but the projector's do more than read the read models", () => {
    const { template, stack } = dev();
    const readTableId = stack.getLogicalId(stack.projections.table.node.defaultChild as any);
    const projectorRole = roleOf(
      template,
      stack.getLogicalId(stack.projections.projector.node.defaultChild as any),
    );
    for (const [roleId, statements] of statementsByRole(template)) {
      for (const line of grantsOf(statements)) {
        if (!line.includes(readTableId)) continue;
        if (roleId !== projectorRole) expect(line, roleId).toMatch(/^dynamodb:(GetItem|Query) on /);
      }
    }
  });
});

describe('the HTTP API', () => {
  it('has exactly the routes of the route table, each to its own function, payload 2.0', () => {
    const { template, stack } = dev();
    const all = template.toJSON().Resources;
    const routes = resourcesOf(template, 'AWS::ApiGatewayV2::Route');
    expect(routes.map(([, r]) => r.Properties!.RouteKey).sort()).toEqual(ROUTES.map(routeKey).sort());
    for (const route of ROUTES) {
      const [, resource] = routes.find(([, r]) => r.Properties!.RouteKey === routeKey(route))!;
      const integrationId = resource.Properties!.Target['Fn::Join'][1][1].Ref as string;
      expect(all[integrationId].Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [logicalIdOf(stack, route.name), 'Arn'] },
      });
    }
    expect(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).toHaveLength(1);
  });

  it('answers CORS preflights for the configured origins with the headers the API uses', () => {
    dev().template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: ['*'],
        AllowMethods: Match.arrayWith(['GET', 'POST']),
        AllowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key'],
        ExposeHeaders: ['ETag', 'Location', 'Retry-After', 'Idempotent-Replayed'],
      },
    });
    synthesize({ corsOrigins: 'https://a.example, https://b.example' }).template.hasResourceProperties(
      'AWS::ApiGatewayV2::Api',
      { CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://a.example', 'https://b.example'] }) },
    );
  });

  it('throttles its one auto-deployed stage as the context says, and the open CPU-heavy routes harder', () => {
    const { template } = synthesize({ throttleRate: '40', throttleBurst: '80' });
    const stages = resourcesOf(template, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    expect(stages[0]![1].Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 40, ThrottlingBurstLimit: 80 },
      RouteSettings: {
        'POST /replays': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /games': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'GET /games/{id}/analysis': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        // Seconds of solving for anyone with a game: a token is one anonymous POST /games away.
        'GET /games/{id}/hint': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /games/{id}/autocomplete': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      },
    });
    expect(Object.keys(stages[0]![1].Properties!.RouteSettings)).toHaveLength(5);
  });

  it('writes a JSON access log line per request to its own log group', () => {
    const { template } = dev();
    const [[, stage]] = resourcesOf(template, 'AWS::ApiGatewayV2::Stage') as [[string, any]];
    const settings = stage.Properties.AccessLogSettings;
    const groupId = settings.DestinationArn['Fn::GetAtt'][0];
    expect(template.toJSON().Resources[groupId].Type).toBe('AWS::Logs::LogGroup');
    const format = JSON.parse(settings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      method: '$context.httpMethod',
      path: '$context.path',
      status: '$context.status',
      latency: '$context.responseLatency',
    });
  });
});

describe('operations', () => {
  it("alarm on API 5xx rate, every function's errors and throttles, and table throttling", () => {
    const { template, stack } = dev();
    const alarms = resourcesOf(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    // The API's rate, two per route, two on the event table; then the read side (projections.test.ts):
    // the projector's iterator age, errors and throttles, the failure queue, the read-model table;
    // and the daily deals (daily.test.ts): tomorrow's deal missing, the preparation's errors.
    expect(alarms).toHaveLength(1 + 2 * ROUTES.length + 2 + 5 + 2);

    const rate = alarms.filter((a) =>
      a.Metrics?.some((m: any) => /errors \/ requests/.test(m.Expression ?? '')),
    );
    expect(rate).toHaveLength(1);
    const used = rate[0]!.Metrics.filter((m: any) => m.MetricStat).map(
      (m: any) => m.MetricStat.Metric.MetricName,
    );
    expect(used.sort()).toEqual(['5xx', 'Count']);

    for (const route of ROUTES) {
      const fnRef = { Ref: logicalIdOf(stack, route.name) };
      for (const metric of ['Errors', 'Throttles']) {
        const match = alarms.filter(
          (a) =>
            a.MetricName === metric &&
            a.Namespace === 'AWS/Lambda' &&
            JSON.stringify(a.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: fnRef }]),
        );
        expect(match, `${route.name} ${metric}`).toHaveLength(1);
      }
    }
    const tableMetrics = alarms
      .flatMap((a) => a.Metrics ?? [])
      .filter((m: any) => m.MetricStat?.Metric.Namespace === 'AWS/DynamoDB')
      .map((m: any) => m.MetricStat.Metric.MetricName);
    expect(tableMetrics).toContain('ThrottledRequests');
    // DynamoDB sends these only when they happen: an operation with no figure counts 0 in the sum,
    // which otherwise has no value, and alarms nothing, unless every operation has a figure.
    const sums = alarms
      .flatMap((a) => a.Metrics ?? [])
      .filter((m: any) => /getitem/.test(m.Expression ?? ''))
      .map((m: any) => m.Expression);
    // The event table's throttles and system errors, the read-model table's throttles.
    expect(sums).toEqual(Array(3).fill('FILL(getitem, 0) + FILL(putitem, 0) + FILL(query, 0)'));
  });

  it('notify an SNS topic when one is given', () => {
    const arn = 'arn:aws:sns:eu-west-1:123456789012:klondike-alarms';
    const alarms = resourcesOf(synthesize({ alarmTopicArn: arn }).template, 'AWS::CloudWatch::Alarm');
    for (const [, alarm] of alarms) expect(alarm.Properties!.AlarmActions).toEqual([arn]);
    for (const [, alarm] of resourcesOf(dev().template, 'AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties!.AlarmActions).toBeUndefined();
    }
  });

  it('refuse a topic of another region than the stack: an alarm notifies a topic of its own region', () => {
    const config = configFromContext({ alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:klondike-alarms' });
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const env = { account: '123456789012', region: 'us-east-1' };
    expect(() => new KlondikeStack(app, 'Elsewhere', { config, env })).toThrow(
      /the topic is in eu-west-1, the stack in us-east-1/,
    );
  });

  it('output the API URL, the table name and the queue of given-up records', () => {
    const { template, stack } = dev();
    template.hasOutput('ApiUrl', { Value: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
    template.hasOutput('TableName', {
      Value: { Ref: stack.getLogicalId(stack.table.node.defaultChild as any) },
    });
    template.hasOutput('ProjectionFailuresQueueUrl', {
      Value: { Ref: stack.getLogicalId(stack.projections.failures.node.defaultChild as any) },
    });
  });
});

describe('cdk-nag (AWS Solutions)', () => {
  it('finds nothing that is not acknowledged with a reason', () => {
    for (const { app } of [dev(), synthesize({ stage: 'prod' })]) {
      const report = new AwsSolutionsChecks().validateScope(app);
      expect(
        report.violations.map((v) => `${v.ruleName}: ${v.violatingResources[0]?.constructPath}`),
      ).toEqual([]);
      expect(report.success).toBe(true);
    }
  });

  it('is acknowledged for APIG4 on the routes, on the web site only as test/infra/site.test.ts lists, and on the read side and the user pool only as listed here, each with a reason', () => {
    const { stack } = dev();
    const acknowledged: [any, Record<string, string>][] = (stack.node.findAll() as any[]).flatMap((c) =>
      c.node.metadata
        .filter((m: any) => m.type === 'aws:cdk:acknowledged-rules')
        .map((m: any) => [c, m.data] as [any, Record<string, string>]),
    );
    const onApi = acknowledged.filter(([c]) => /\/Api\/.+/.test(c.node.path));
    expect(onApi).toHaveLength(ROUTES.length);
    for (const [, data] of onApi) {
      const entries: [string, string][] = Object.entries(data);
      expect(entries.map(([id]) => id.replace(/^annotation::/i, ''))).toEqual(['AwsSolutions-APIG4']);
      expect(entries[0]![1].length).toBeGreaterThan(40);
    }
    // Where the read side and sign-in accept a finding (each reason in infra/projections.ts, infra/players.ts).
    const elsewhere = acknowledged.filter(
      ([c]) => !onApi.some(([o]) => o === c) && !/\/Web\/|\/Custom::CDKBucketDeployment/.test(c.node.path),
    );
    expect(
      elsewhere
        .flatMap(([c, data]) =>
          Object.keys(data).map((id) => `${c.node.path}: ${id.replace(/^annotation::/i, '')}`),
        )
        .sort(),
    ).toEqual([
      'Klondike-dev/CreationSecret: AwsSolutions-SMG4',
      'Klondike-dev/Players/UserPool: AwsSolutions-COG2',
      'Klondike-dev/Players/UserPool: AwsSolutions-COG8',
      'Klondike-dev/Projections/Failures: AwsSolutions-SQS3',
      'Klondike-dev/Projections/ProjectorRole: AwsSolutions-IAM5[Resource::*]',
    ]);
    for (const [construct, data] of acknowledged.filter(([c]) =>
      /\/Web\/|\/Custom::CDKBucketDeployment/.test(c.node.path),
    )) {
      for (const [key, reason] of Object.entries(data) as [string, string][]) {
        const id = key.replace(/^annotation::/i, '');
        // The CDK acknowledges W3045 itself on a bucket that CloudFront's logs reach by ACL.
        if (id === 'CloudFormation-Validate::W3045') expect(construct.node.path).toMatch(/\/Web\/Logs$/);
        else expect(id).toMatch(/^AwsSolutions-(S1|CFR1|CFR2|CFR4|L1|IAM4|IAM5)\b/);
        expect(reason.length, id).toBeGreaterThan(40);
      }
    }
    for (const [, data] of elsewhere) {
      for (const reason of Object.values(data)) expect(reason.length).toBeGreaterThan(40);
    }
  });

  it('leaves no error or warning annotations on the stack after synthesis', () => {
    const { stack } = dev();
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });
});
