import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes.js';
import { apiPathPatterns, apiPathPrefixes } from '../../infra/api-paths.js';
import { contentSecurityPolicy } from '../../infra/site-headers.js';
import { resourcesOf, synthesize } from './harness.js';

const dev = () => synthesize();
const resources = () => dev().template.toJSON().Resources as Record<string, any>;
const idOf = (construct: any) => dev().stack.getLogicalId(construct.node.defaultChild);

/** CloudFront's path pattern match: `*` is any run of characters, the rest is literal. */
const matches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);

/** The managed policies the API's behaviors use (CloudFront's fixed ids). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

describe("the API's paths, from the route table", () => {
  it('are /daily, /daily/*, /games, /games/*, /me/*, /openapi.json and /replays, and every route falls under one', () => {
    expect(apiPathPatterns()).toEqual([
      '/daily',
      '/daily/*',
      '/games',
      '/games/*',
      '/me/*',
      '/openapi.json',
      '/replays',
    ]);
    expect(apiPathPrefixes()).toEqual(['/daily', '/games', '/me', '/openapi.json', '/replays']);
    for (const route of ROUTES) {
      if (route.path === '$default') continue;
      const path = route.path.replace(/\{\w+\}/g, 'x');
      expect(
        apiPathPatterns().some((p) => matches(p, path)),
        path,
      ).toBe(true);
    }
    expect(apiPathPatterns().some((p) => matches(p, '/'))).toBe(false);
    expect(apiPathPatterns().some((p) => matches(p, '/assets/index-abc.js'))).toBe(false);
  });

  it('grow with the route table: a new route gets its pattern', () => {
    const more = [
      ...ROUTES,
      { name: 'myGames', method: 'GET', path: '/me/games', access: 'read', summary: '' } as const,
    ];
    expect(apiPathPatterns(more)).toContain('/me/*');
  });
});

/** Every resource a resource names (Ref, Fn::GetAtt, Fn::Sub's ${...}, DependsOn). */
function dependenciesOf(resource: any, ids: Set<string>): Set<string> {
  const found = new Set<string>();
  const walk = (value: any): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (!value || typeof value !== 'object') {
      if (typeof value === 'string')
        for (const m of value.matchAll(/\$\{([\w]+)(?:\.[\w.]+)?\}/g)) if (ids.has(m[1]!)) found.add(m[1]!);
      return;
    }
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && ids.has(inner as string)) found.add(inner as string);
      else if (key === 'Fn::GetAtt' && ids.has((inner as string[])[0]!)) found.add((inner as string[])[0]!);
      else walk(inner);
    }
  };
  walk(resource.Properties);
  for (const id of [resource.DependsOn ?? []].flat()) found.add(id);
  return found;
}

/** A cycle in a graph of resources, as the ids along it (empty when there is none). */
function cycleIn(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, path: string[]): string[] => {
    if (state.get(id) === 'done') return [];
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    for (const next of edges.get(id) ?? []) {
      const found = visit(next, [...path, id]);
      if (found.length > 0) return found;
    }
    state.set(id, 'done');
    return [];
  };
  for (const id of edges.keys()) {
    const found = visit(id, []);
    if (found.length > 0) return found;
  }
  return [];
}

describe('the template', () => {
  it("has no dependency cycle, now that the pool's client names the distribution's URL", () => {
    const all = resources();
    const ids = new Set(Object.keys(all));
    const edges = new Map([...ids].map((id) => [id, dependenciesOf(all[id], ids)]));
    const { stack } = dev();
    // The edge that could close a loop: client -> distribution (its callback URL) ...
    expect(edges.get(idOf(stack.players.client))).toContain(idOf(stack.site.distribution));
    // ... and the functions name the client (its id is their audience).
    expect(edges.get(stack.getLogicalId(stack.functions.get('myGames')!.node.defaultChild as any))).toContain(
      idOf(stack.players.client),
    );
    expect(cycleIn(edges)).toEqual([]);
    // The search does find one where there is one.
    const looped = new Map(edges);
    looped.set(idOf(stack.site.distribution), new Set([idOf(stack.players.client)]));
    const loop = cycleIn(looped);
    expect(new Set(loop)).toEqual(new Set([idOf(stack.players.client), idOf(stack.site.distribution)]));
    expect(loop[0]).toBe(loop.at(-1));
  });
});

describe('the web site', () => {
  it('keeps its files in a private bucket: public access blocked, TLS only, logged, emptied when the stack deletes it', () => {
    const { site } = dev().stack;
    const bucket = resources()[idOf(site.bucket)];
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: idOf(site.logs) },
      LogFilePrefix: 'bucket/',
    });
    const [, policy] = resourcesOf(dev().template, 'AWS::S3::BucketPolicy').find(
      ([, p]) => p.Properties!.Bucket.Ref === idOf(site.bucket),
    )!;
    const statements = policy.Properties!.PolicyDocument.Statement as any[];
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    // The one reader: this distribution, through origin access control.
    const allows = statements.filter((s) => s.Effect === 'Allow');
    const readers = allows.filter((s) => s.Action === 's3:GetObject');
    expect(readers).toHaveLength(1);
    expect(readers[0]).toMatchObject({
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
    });
    expect(JSON.stringify(readers[0].Condition)).toContain(idOf(site.distribution));
    // CloudFormation deletes no bucket that holds objects: the CDK's handler empties it first (and
    // only when the bucket goes), the one other grant.
    const emptied = resourcesOf(dev().template, 'Custom::S3AutoDeleteObjects');
    expect(emptied.map(([, r]) => r.Properties!.BucketName)).toEqual([{ Ref: idOf(site.bucket) }]);
    expect(bucket.DeletionPolicy).toBe('Delete');
    const others = allows.filter((s) => s !== readers[0]);
    expect(others).toHaveLength(1);
    expect(JSON.stringify(others[0].Principal)).toContain(
      'CustomS3AutoDeleteObjectsCustomResourceProviderRole',
    );
  });

  it('is served by CloudFront from the bucket with origin access control, and the API beside it with caching off', () => {
    const { site } = dev().stack;
    const config = resources()[idOf(site.distribution)].Properties.DistributionConfig;
    const [oacId] = resourcesOf(dev().template, 'AWS::CloudFront::OriginAccessControl').map(([id]) => id);
    const s3Origin = config.Origins.find((o: any) => o.S3OriginConfig);
    const apiOrigin = config.Origins.find((o: any) => o.CustomOriginConfig);
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(s3Origin.DomainName).toEqual({ 'Fn::GetAtt': [idOf(site.bucket), 'RegionalDomainName'] });
    expect(apiOrigin.CustomOriginConfig).toEqual({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    expect(JSON.stringify(apiOrigin.DomainName)).toContain(idOf(dev().stack.api));

    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3Origin.Id,
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
    });
    expect(config.CacheBehaviors.map((b: any) => b.PathPattern)).toEqual(apiPathPatterns());
    for (const behavior of config.CacheBehaviors) {
      expect(behavior).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
      });
      expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'OPTIONS']));
    }
    // Error pages would replace the API's own 403 and 404 answers too.
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [idOf(site.logs), 'RegionalDomainName'] },
      Prefix: 'cloudfront/',
    });
  });

  it('sends the Content-Security-Policy of npm start, allowing fetches to the pool domain only, and HSTS', () => {
    const { stack } = dev();
    const domain = { Ref: idOf(stack.players.domain) };
    dev().template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: {
            ContentSecurityPolicy: stack.resolve(contentSecurityPolicy([stack.players.domain.baseUrl()])),
            Override: true,
          },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31536000 }),
        }),
      }),
    });
    const [[, policy]] = resourcesOf(dev().template, 'AWS::CloudFront::ResponseHeadersPolicy') as [
      [string, any],
    ];
    const csp = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy;
    // connect-src: the page's own origin and https://<the pool's domain>.auth.<region>.amazoncognito.com.
    expect(csp.ContentSecurityPolicy).toEqual({
      'Fn::Join': [
        '',
        [
          expect.stringMatching(/connect-src 'self' https:\/\/$/),
          domain,
          '.auth.',
          { Ref: 'AWS::Region' },
          expect.stringMatching(/^\.amazoncognito\.com; base-uri 'none'/),
        ],
      ],
    });
  });

  it('deploys the build: hashed assets immutable first, then config.json and index.html uncached, invalidated at the edge', () => {
    const { site } = dev().stack;
    const deployments = resourcesOf(dev().template, 'Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(3);
    const [assetsId, assets] = deployments.find(([, d]) => d.Properties!.Exclude?.[0] === 'index.html')!;
    const [, index] = deployments.find(([, d]) => d.Properties!.Include?.[0] === 'index.html')!;
    const [configId, config] = deployments.find(
      ([, d]) => d.Properties!.DistributionPaths?.[0] === '/config.json',
    )!;
    expect(assets.Properties).toMatchObject({
      DestinationBucketName: { Ref: idOf(site.bucket) },
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
      Exclude: ['index.html', 'config.json'],
      // Earlier builds' assets stay: a page loaded before this deploy (or an edge's old
      // index.html until its invalidation ends) still finds its own.
      Prune: false,
    });
    expect(index.Properties).toMatchObject({
      DestinationBucketName: { Ref: idOf(site.bucket) },
      Prune: false,
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionId: { Ref: idOf(site.distribution) },
      DistributionPaths: ['/', '/index.html'],
    });
    expect(config.Properties).toMatchObject({
      DestinationBucketName: { Ref: idOf(site.bucket) },
      Prune: false,
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionId: { Ref: idOf(site.distribution) },
    });
    expect(index.DependsOn).toEqual(expect.arrayContaining([assetsId, configId]));
    // Both copy the one staged build.
    expect(index.Properties!.SourceObjectKeys).toEqual(assets.Properties!.SourceObjectKeys);
  });

  it("deploys /config.json naming the pool's hosted UI, its public client and the page itself as the callback", () => {
    const { stack, template } = dev();
    const at = (path: string) => stack.resolve(`${stack.players.domain.baseUrl()}${path}`);
    const webUrl = {
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [idOf(stack.site.distribution), 'DomainName'] }, '/']],
    };
    expect(stack.resolve(stack.site.siteConfig)).toEqual({
      signIn: {
        kind: 'oauth',
        authorizeUrl: at('/oauth2/authorize'),
        tokenUrl: at('/oauth2/token'),
        logoutUrl: at('/logout'),
        clientId: { Ref: idOf(stack.players.client) },
        scope: 'openid email',
        redirectUri: webUrl,
      },
    });
    // The same URL the client takes as its one callback (players.test.ts).
    const [[, client]] = resourcesOf(template, 'AWS::Cognito::UserPoolClient') as [[string, any]];
    expect(client.Properties.CallbackURLs).toEqual([webUrl]);
    // The names are filled in at deployment: the file is staged with markers for them.
    const [, config] = resourcesOf(template, 'Custom::CDKBucketDeployment').find(
      ([, d]) => d.Properties!.DistributionPaths?.[0] === '/config.json',
    )!;
    expect(Object.values(config.Properties!.SourceMarkers[0])).toEqual(
      expect.arrayContaining([{ Ref: idOf(stack.players.client) }, webUrl]),
    );
  });

  it("keeps its logs for the stage's retention, and outputs the page's URL", () => {
    const { site } = dev().stack;
    expect(resources()[idOf(site.logs)].Properties.LifecycleConfiguration.Rules).toEqual([
      { ExpirationInDays: 7, Status: 'Enabled' },
    ]);
    dev().template.hasOutput('WebUrl', {
      Value: {
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [idOf(site.distribution), 'DomainName'] }, '/']],
      },
    });
  });

  it("is acknowledged to cdk-nag only where the CDK's deployment handler or CloudFront's defaults leave no choice", () => {
    // The site's and its deployment handler's; the rest of the stack's are checked in stack.test.ts.
    const ours = (dev().stack.node.findAll() as any[]).filter((c) =>
      /\/Web\/|\/Custom::CDKBucketDeployment/.test(c.node.path),
    );
    const acknowledged = ours.flatMap((c) =>
      c.node.metadata
        .filter((m: any) => m.type === 'aws:cdk:acknowledged-rules')
        .flatMap((m: any) =>
          Object.keys(m.data).map((id) => `${c.node.id}: ${id.replace(/^annotation::/i, '')}`),
        ),
    );
    const site = acknowledged.filter((a) => !a.includes('APIG4'));
    // W3045 is the CDK's own, on a bucket that CloudFront's logs reach by ACL.
    expect(site.filter((a) => a.startsWith('Logs:')).sort()).toEqual([
      'Logs: AwsSolutions-S1',
      'Logs: CloudFormation-Validate::W3045',
    ]);
    expect(site.filter((a) => a.startsWith('Distribution:'))).toEqual([
      'Distribution: AwsSolutions-CFR1',
      'Distribution: AwsSolutions-CFR2',
      'Distribution: AwsSolutions-CFR4',
    ]);
    const handler = site.filter((a) => a.startsWith('Custom::CDKBucketDeployment'));
    expect(handler.length).toBeGreaterThan(0);
    for (const a of handler) expect(a).toMatch(/AwsSolutions-(L1|IAM4|IAM5)/);
    expect(site.length).toBe(2 + 3 + handler.length);
  });
});
