import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../functions/routes.js';
import type { KlondikeStack } from '../../infra/stack.js';
import { resourcesOf, synthesize } from './harness.js';

const dev = () => synthesize();

/** The functions of the routes: every function but the CDK's BucketDeployment handler (see site.test.ts). */
const routeFunctions = (template: Template) =>
  resourcesOf(template, 'AWS::Lambda::Function').filter(
    ([id]) => !id.startsWith('CustomCDKBucketDeployment'),
  );

const logicalIdOf = (stack: KlondikeStack, name: string): string =>
  stack.getLogicalId(stack.functions.get(name)!.node.defaultChild as CfnFunction);

/** Every action each role may perform, from its inline policies and attached policies. */
function actionsByRole(): Map<string, { actions: Set<string>; statements: any[] }> {
  const { template } = dev();
  const byRole = new Map<string, { actions: Set<string>; statements: any[] }>();
  const add = (roleId: string, statements: any[]) => {
    const entry = byRole.get(roleId) ?? { actions: new Set<string>(), statements: [] };
    for (const s of statements) {
      for (const a of [s.Action].flat()) entry.actions.add(a);
      entry.statements.push(s);
    }
    byRole.set(roleId, entry);
  };
  for (const [, policy] of resourcesOf(template, 'AWS::IAM::Policy')) {
    for (const role of policy.Properties!.Roles) add(role.Ref, policy.Properties!.PolicyDocument.Statement);
  }
  for (const [id, role] of resourcesOf(template, 'AWS::IAM::Role')) {
    for (const p of role.Properties!.Policies ?? []) add(id, p.PolicyDocument.Statement);
    if (!byRole.has(id)) byRole.set(id, { actions: new Set(), statements: [] });
  }
  return byRole;
}

describe('the event table', () => {
  it('has pk (string) and sk (number), on-demand billing, PITR and AWS-managed encryption', () => {
    dev().template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'N' },
      ]),
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.absent() },
      Replicas: [
        Match.objectLike({
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      ],
    });
    expect(resourcesOf(dev().template, 'AWS::DynamoDB::GlobalTable')).toHaveLength(1);
    expect(resourcesOf(dev().template, 'AWS::DynamoDB::Table')).toHaveLength(0);
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
  it('are one per route, on Node.js 24 arm64, with the table name and source maps', () => {
    const { template, stack } = dev();
    expect(routeFunctions(template)).toHaveLength(ROUTES.length);
    const tableId = stack.getLogicalId(stack.table.node.defaultChild as any);
    for (const route of ROUTES) {
      const fn = template.toJSON().Resources[logicalIdOf(stack, route.name)];
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        Timeout: 10,
        Environment: { Variables: { TABLE_NAME: { Ref: tableId }, NODE_OPTIONS: '--enable-source-maps' } },
      });
    }
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

  it('may touch the table only as their access level allows', () => {
    const { template, stack } = dev();
    const roles = actionsByRole();
    const expected = {
      none: [],
      read: ['dynamodb:GetItem', 'dynamodb:Query'],
      write: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
    };
    const tableArn = { 'Fn::GetAtt': [stack.getLogicalId(stack.table.node.defaultChild as any), 'Arn'] };
    for (const route of ROUTES) {
      const fn = template.toJSON().Resources[logicalIdOf(stack, route.name)];
      const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
      const { actions, statements } = roles.get(roleId)!;
      const tableActions = [...actions].filter((a) => a.startsWith('dynamodb:')).sort();
      expect(tableActions, route.name).toEqual(expected[route.access]);
      expect([...actions].filter((a) => !a.startsWith('dynamodb:')).sort(), route.name).toEqual([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
      ]);
      for (const s of statements.filter((st) =>
        [st.Action].flat().some((a: string) => a.startsWith('dynamodb:')),
      )) {
        expect(s.Resource, route.name).toEqual(tableArn);
      }
      expect(template.toJSON().Resources[roleId].Properties.ManagedPolicyArns, route.name).toBeUndefined();
    }
  });

  it('can never delete, update, scan or batch anything, and no policy uses a wildcard action', () => {
    const { template } = dev();
    const roles = actionsByRole();
    for (const [, fn] of routeFunctions(template)) {
      for (const action of roles.get(fn.Properties!.Role['Fn::GetAtt'][0])!.actions) {
        expect(action).not.toMatch(/Delete|Update|Scan|Batch|Transact|PartiQL|\*/);
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
        ExposeHeaders: ['ETag', 'Location', 'Retry-After'],
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
      },
    });
    expect(Object.keys(stages[0]![1].Properties!.RouteSettings)).toHaveLength(2);
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
    expect(alarms).toHaveLength(1 + 2 * ROUTES.length + 2);

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
  });

  it('notify an SNS topic when one is given', () => {
    const arn = 'arn:aws:sns:eu-west-1:123456789012:klondike-alarms';
    const alarms = resourcesOf(synthesize({ alarmTopicArn: arn }).template, 'AWS::CloudWatch::Alarm');
    for (const [, alarm] of alarms) expect(alarm.Properties!.AlarmActions).toEqual([arn]);
    for (const [, alarm] of resourcesOf(dev().template, 'AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties!.AlarmActions).toBeUndefined();
    }
  });

  it('output the API URL and the table name', () => {
    const { template, stack } = dev();
    template.hasOutput('ApiUrl', { Value: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
    template.hasOutput('TableName', {
      Value: { Ref: stack.getLogicalId(stack.table.node.defaultChild as any) },
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

  it('is acknowledged for APIG4 on the routes, and on the web site only as test/infra/site.test.ts lists, each with a reason', () => {
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
    for (const [construct, data] of acknowledged.filter((entry) => !onApi.includes(entry))) {
      expect(construct.node.path).toMatch(/\/Web\/|\/Custom::CDKBucketDeployment/);
      for (const [key, reason] of Object.entries(data) as [string, string][]) {
        const id = key.replace(/^annotation::/i, '');
        // The CDK acknowledges W3045 itself on a bucket that CloudFront's logs reach by ACL.
        if (id === 'CloudFormation-Validate::W3045') expect(construct.node.path).toMatch(/\/Web\/Logs$/);
        else expect(id).toMatch(/^AwsSolutions-(S1|CFR1|CFR2|CFR4|L1|IAM4|IAM5)\b/);
        expect(reason.length, id).toBeGreaterThan(40);
      }
    }
  });

  it('leaves no error or warning annotations on the stack after synthesis', () => {
    const { stack } = dev();
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });
});
