/**
 * Signing in, in AWS: the Cognito user pool and its public client, the issuer the functions are
 * given, and the proof that the development issuer of `npm start` is never deployed.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes.js';
import { apiPathPatterns } from '../../infra/api-paths.js';
import { resourcesOf, synthesize } from './harness.js';

const dev = () => synthesize();
const resources = () => dev().template.toJSON().Resources as Record<string, any>;
const idOf = (construct: any) => dev().stack.getLogicalId(construct.node.defaultChild);

/**
 * What only the local runtime serves: its development issuer (infra/local/issuer.ts) and its
 * rebuild trigger (infra/local/runtime.ts).
 */
const DEV_ISSUER_PATHS = ['/dev/tokens', '/.well-known/jwks.json', '/dev/rebuild-projections'];

/** CloudFront's path pattern match: `*` is any run of characters, the rest is literal. */
const matches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);

describe('the user pool', () => {
  it('lets players sign up with their email, verified, under a strong password policy, MFA optional', () => {
    const pools = resourcesOf(dev().template, 'AWS::Cognito::UserPool');
    expect(pools).toHaveLength(1);
    expect(pools[0]![1].Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AutoVerifiedAttributes: ['email'],
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      UserPoolTier: 'LITE',
    });
  });

  it('is kept with the data (a player is their sub), unless a dev stack is destroyed on removal', () => {
    for (const context of [{}, { stage: 'prod' }]) {
      const [[, pool]] = resourcesOf(synthesize(context).template, 'AWS::Cognito::UserPool') as [
        [string, any],
      ];
      expect(pool).toMatchObject({ DeletionPolicy: 'Retain', Properties: { DeletionProtection: 'ACTIVE' } });
    }
    const [[, pool]] = resourcesOf(
      synthesize({ destroyOnRemoval: 'true' }).template,
      'AWS::Cognito::UserPool',
    ) as [[string, any]];
    expect(pool).toMatchObject({ DeletionPolicy: 'Delete', Properties: { DeletionProtection: 'INACTIVE' } });
  });

  it('has one public client: no secret, SRP (and admin password auth for operators), the code grant back to the web page only, tokens for an hour', () => {
    const { stack } = dev();
    const clients = resourcesOf(dev().template, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    const client = clients[0]![1].Properties!;
    const webUrl = {
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [idOf(stack.site.distribution), 'DomainName'] }, '/']],
    };
    expect(client).toMatchObject({
      UserPoolId: { Ref: idOf(stack.players.userPool) },
      GenerateSecret: false,
      SupportedIdentityProviders: ['COGNITO'],
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes' },
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: 'ENABLED',
      // The web page: the authorization code grant (with PKCE, the page's part), never the
      // implicit grant, and back to the page's own URL and nowhere else.
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email'],
      CallbackURLs: [webUrl],
      LogoutURLs: [webUrl],
    });
    expect([...client.ExplicitAuthFlows].sort()).toEqual([
      'ALLOW_ADMIN_USER_PASSWORD_AUTH',
      'ALLOW_REFRESH_TOKEN_AUTH',
      'ALLOW_USER_SRP_AUTH',
    ]);
    expect(JSON.stringify(client)).not.toContain('example.com');
  });

  it("has a Cognito domain for the hosted UI (Lite's classic pages), unique by the stack's id", () => {
    const { stack, template } = dev();
    const domains = resourcesOf(template, 'AWS::Cognito::UserPoolDomain');
    expect(domains).toHaveLength(1);
    expect(domains[0]![0]).toBe(idOf(stack.players.domain));
    expect(domains[0]![1].Properties).toEqual({
      UserPoolId: { Ref: idOf(stack.players.userPool) },
      Domain: {
        'Fn::Join': [
          '-',
          ['klondike-dev', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }],
        ],
      },
      ManagedLoginVersion: 1,
    });
    // A custom domain would need a certificate in us-east-1 and DNS: none here.
    expect(domains[0]![1].Properties!.CustomDomainConfig).toBeUndefined();
  });

  it("is the issuer every route function trusts: the pool's URL and the client's id", () => {
    const { stack, template } = dev();
    const poolId = idOf(stack.players.userPool);
    const issuer = {
      'Fn::Join': [
        '',
        [
          'https://cognito-idp.',
          { Ref: 'AWS::Region' },
          '.',
          { Ref: 'AWS::URLSuffix' },
          '/',
          { Ref: poolId },
        ],
      ],
    };
    const clientId = { Ref: idOf(stack.players.client) };
    for (const route of ROUTES) {
      const variables = resources()[idOf(stack.functions.get(route.name))].Properties.Environment.Variables;
      expect(variables.OIDC_ISSUER, route.name).toEqual(issuer);
      expect(variables.OIDC_AUDIENCE, route.name).toEqual(clientId);
      // The JWKS is the issuer's own, at the default place (functions/http/identity.ts).
      expect(variables.OIDC_JWKS_URL, route.name).toBeUndefined();
    }
    template.hasOutput('OidcIssuer', { Value: issuer });
    template.hasOutput('UserPoolId', { Value: { Ref: poolId } });
    template.hasOutput('UserPoolClientId', { Value: clientId });
  });
});

describe('the development issuer and the other local-only routes', () => {
  it('has no route, integration or path pattern in the stack', () => {
    const { template } = dev();
    const routeKeys = resourcesOf(template, 'AWS::ApiGatewayV2::Route').map(
      ([, r]) => r.Properties!.RouteKey,
    );
    expect(routeKeys.length).toBe(ROUTES.length);
    for (const path of DEV_ISSUER_PATHS) {
      for (const key of routeKeys) {
        const [, routePath = ''] = String(key).split(' ');
        const pattern = new RegExp(`^${routePath.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        expect(pattern.test(path), `${key} would take ${path}`).toBe(false);
      }
      // The one catch-all is the 404 function's.
      expect(routeKeys.filter((key) => key === '$default')).toHaveLength(1);
      for (const [, integration] of resourcesOf(template, 'AWS::ApiGatewayV2::Integration')) {
        expect(JSON.stringify(integration.Properties)).not.toContain(path);
      }
      // CloudFront sends none of them to the API (the bucket answers them 403).
      for (const pattern of apiPathPatterns()) expect(matches(pattern, path), pattern).toBe(false);
      const [[, distribution]] = resourcesOf(template, 'AWS::CloudFront::Distribution') as [[string, any]];
      for (const behavior of distribution.Properties.DistributionConfig.CacheBehaviors) {
        expect(matches(behavior.PathPattern, path), behavior.PathPattern).toBe(false);
      }
    }
  });

  it('is named nowhere in the template, nor is any /dev/ path', () => {
    const text = JSON.stringify(dev().template.toJSON());
    const named = [...text.matchAll(/.{0,80}(\/dev\/|well-known|jwks).{0,40}/gi)].map((m) => m[0]);
    expect(named).toEqual([]);
    // ... while the matcher above does see a pattern that would take them.
    expect(matches('/dev/*', '/dev/tokens')).toBe(true);
    expect(matches('/.well-known/*', '/.well-known/jwks.json')).toBe(true);
  });
});
