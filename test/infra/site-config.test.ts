/**
 * The web page's `/config.json` under `npm start`, and the CSP that goes with it: the development
 * issuer on the page's own origin, or a Cognito domain's hosted UI (COGNITO_DOMAIN), whose origin
 * the page must then be allowed to fetch its tokens from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../infra/local/runtime.js';
import type { Site } from '../../infra/local/site.js';
import { localSiteConfig } from '../../infra/local/site-config.js';
import { contentSecurityPolicy } from '../../infra/site-headers.js';
import { startLocal } from '../support/local.js';

const DOMAIN = 'https://klondike-dev-1234.auth.eu-west-1.amazoncognito.com';

describe('localSiteConfig', () => {
  it('points the page at /dev/tokens when the runtime runs its development issuer', () => {
    expect(localSiteConfig({}, true)).toEqual({
      config: { signIn: { kind: 'dev', tokenUrl: '/dev/tokens' } },
      connectSources: [],
    });
  });

  it("points it at a Cognito domain's hosted UI, the client being OIDC_AUDIENCE, and allows fetching from it", () => {
    const env = { OIDC_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/pool', OIDC_AUDIENCE: 'abc123' };
    expect(localSiteConfig({ ...env, COGNITO_DOMAIN: `${DOMAIN}/` }, false)).toEqual({
      config: {
        signIn: {
          kind: 'oauth',
          authorizeUrl: `${DOMAIN}/oauth2/authorize`,
          tokenUrl: `${DOMAIN}/oauth2/token`,
          logoutUrl: `${DOMAIN}/logout`,
          clientId: 'abc123',
          scope: 'openid email',
        },
      },
      connectSources: [DOMAIN],
    });
    // Another issuer without a domain: the page has no way to sign in there, and says none.
    expect(localSiteConfig(env, false)).toEqual({ config: { signIn: { kind: 'none' } }, connectSources: [] });
  });

  it('refuses a domain that is not a URL, or plain HTTP off this machine', () => {
    const env = { OIDC_AUDIENCE: 'abc123' };
    expect(() => localSiteConfig({ ...env, COGNITO_DOMAIN: 'klondike-dev' }, false)).toThrow(
      'COGNITO_DOMAIN=klondike-dev is not a URL',
    );
    expect(() => localSiteConfig({ ...env, COGNITO_DOMAIN: 'http://auth.example.com' }, false)).toThrow(
      'must be an https URL',
    );
    expect(
      localSiteConfig({ ...env, COGNITO_DOMAIN: 'http://127.0.0.1:9999' }, false).connectSources,
    ).toEqual(['http://127.0.0.1:9999']);
  });
});

describe('the local runtime trusts another issuer only with both OIDC_ISSUER and OIDC_AUDIENCE', () => {
  it('refuses to start with one of them alone, saying so (rather than start with no sign-in at all)', async () => {
    for (const [name, value] of [
      ['OIDC_ISSUER', 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_pool'],
      ['OIDC_AUDIENCE', 'abc123'],
    ] as const) {
      const given = process.env[name];
      process.env[name] = value;
      try {
        await expect(startLocal()).rejects.toThrow(/OIDC_ISSUER and OIDC_AUDIENCE/);
        expect(process.env[name]).toBe(value);
      } finally {
        if (given === undefined) delete process.env[name];
        else process.env[name] = given;
      }
    }
  });
});

describe('the local runtime serves the sign-in config and the CSP that allows it', () => {
  const page: Site = new Map([
    ['/', { body: Buffer.from('<!doctype html>'), headers: { 'content-type': 'text/html; charset=utf-8' } }],
  ]);
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    delete process.env.COGNITO_DOMAIN;
  });

  it('with its development issuer: /config.json says so, and the page fetches from its own origin only', async () => {
    runtime = await startLocal({ site: page });
    const config = await fetch(`${runtime.url}/config.json`);
    expect(config.status).toBe(200);
    expect(config.headers.get('cache-control')).toBe('no-cache');
    expect(await config.json()).toEqual({ signIn: { kind: 'dev', tokenUrl: '/dev/tokens' } });
    const index = await fetch(`${runtime.url}/`);
    expect(index.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(index.headers.get('content-security-policy')).toContain("connect-src 'self';");
  });

  it('trusting a Cognito pool with COGNITO_DOMAIN: the hosted UI in /config.json, its origin in connect-src', async () => {
    const given = { issuer: process.env.OIDC_ISSUER, audience: process.env.OIDC_AUDIENCE };
    process.env.OIDC_ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_pool';
    process.env.OIDC_AUDIENCE = 'abc123';
    process.env.COGNITO_DOMAIN = DOMAIN;
    try {
      runtime = await startLocal({ site: page });
      const config = (await (await fetch(`${runtime.url}/config.json`)).json()) as { signIn: unknown };
      expect(config.signIn).toMatchObject({
        kind: 'oauth',
        tokenUrl: `${DOMAIN}/oauth2/token`,
        clientId: 'abc123',
      });
      const index = await fetch(`${runtime.url}/`);
      expect(index.headers.get('content-security-policy')).toContain(`connect-src 'self' ${DOMAIN};`);
      // No development issuer beside a real one.
      const devTokens = await fetch(`${runtime.url}/dev/tokens`, { method: 'POST', body: '{"player":"x"}' });
      expect(devTokens.status).toBe(404);
    } finally {
      // The runtime gives back at stop what it found at start: the variables set here go after.
      await runtime?.stop();
      runtime = undefined;
      for (const [name, value] of [
        ['OIDC_ISSUER', given.issuer],
        ['OIDC_AUDIENCE', given.audience],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
