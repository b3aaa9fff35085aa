/**
 * The deployed sign-in, as far as it can run on this machine: the web client against a stand-in
 * for a Cognito user pool domain (test/support/fake-cognito.ts), the local runtime trusting it as
 * the stack's functions trust the pool (OIDC_ISSUER, OIDC_AUDIENCE) and serving the page's
 * config for it (COGNITO_DOMAIN) with the CSP that lets the page fetch its tokens there. The
 * page goes to the hosted UI, comes back with a code, exchanges it with its PKCE verifier, plays
 * as the player, and signs out at the hosted UI too. What Cognito itself does is not tested here.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, NO_CHROMIUM, startSite, waitForVersion } from '../support/browser.js';
import { type FakeCognito, startFakeCognito } from '../support/fake-cognito.js';
import { client, type Local } from '../support/local.js';

if (!CHROMIUM) {
  console.log(`web client sign-in tests skipped: ${NO_CHROMIUM}`);
}

const NAMES = ['OIDC_ISSUER', 'OIDC_AUDIENCE', 'COGNITO_DOMAIN'] as const;

describe.skipIf(!CHROMIUM)('signing in at a Cognito-like hosted UI (code grant with PKCE)', () => {
  let cognito: FakeCognito;
  let local: Local;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const given = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));

  beforeAll(async () => {
    cognito = await startFakeCognito();
    process.env.OIDC_ISSUER = cognito.url;
    process.env.OIDC_AUDIENCE = cognito.clientId;
    process.env.COGNITO_DOMAIN = cognito.url;
    local = await startSite();
    // The client's callback is the page itself, as the stack registers the distribution's URL.
    cognito.allow(`${local.url}/`);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
    await cognito?.stop();
    for (const name of NAMES) {
      if (given[name] === undefined) delete process.env[name];
      else process.env[name] = given[name];
    }
  });

  const stored = (): Promise<{ name: string; token: string } | null> =>
    page.evaluate(() => JSON.parse((globalThis as any).localStorage.getItem('klondike.player') ?? 'null'));
  const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));

  async function signInAtHostedUi(email: string): Promise<void> {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === cognito.url && url.pathname === '/oauth2/authorize');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === local.url);
    await page.locator('[data-player]', { hasText: email }).waitFor();
  }

  it('goes to the hosted UI with a PKCE challenge and a state, and comes back signed in where it was', {
    timeout: 60_000,
  }, async () => {
    await page.goto(`${local.url}/#me`);
    await page.getByText('Sign in (at the top of the page)').waitFor();
    await signInAtHostedUi('carol@example.com');

    const authorize = cognito.requests.find((r) => r.path === '/oauth2/authorize')!;
    expect(authorize.params).toMatchObject({
      response_type: 'code',
      client_id: cognito.clientId,
      redirect_uri: `${local.url}/`,
      scope: 'openid email',
      code_challenge_method: 'S256',
    });
    expect(authorize.params.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(authorize.params.state).toMatch(/^[\w-]{22}$/);
    // The code was exchanged by fetch with the verifier (the stand-in refuses a wrong one).
    const exchange = cognito.requests.find((r) => r.path === '/oauth2/token')!;
    expect(exchange.params).toMatchObject({ grant_type: 'authorization_code', client_id: cognito.clientId });
    expect(exchange.params.code_verifier).toMatch(/^[\w-]{43}$/);
    // Back where the player was, the code gone from the address bar.
    expect(new URL(page.url()).search).toBe('');
    expect(new URL(page.url()).hash).toBe('#me');

    // The page keeps the access token (Cognito's names the client in client_id), not the refresh token.
    const player = (await stored())!;
    expect(claims(player.token)).toMatchObject({ token_use: 'access', client_id: cognito.clientId });
    const kept = await page.evaluate(() => JSON.stringify((globalThis as any).localStorage));
    expect(kept).not.toContain('refresh');
  });

  it('plays as the player: the new game is theirs, in My games, opened with the access token', {
    timeout: 60_000,
  }, async () => {
    await page.getByRole('link', { name: 'Play' }).click();
    await waitForVersion(page, 0); // nothing to resume: a game is dealt, the player's own
    const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('game')!;
    expect(new URL(page.url()).hash).toBe(`#game=${id}`);
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, 1);
    await page.getByRole('link', { name: 'My games' }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          await page.waitForSelector('main.me[aria-busy="false"]');
          return page.$$eval('tr[data-game]', (trs) => trs.map((tr) => tr.getAttribute('data-game')));
        },
        { timeout: 10_000, interval: 250 },
      )
      .toEqual([id]);
    const api = client(local.url);
    const { token } = (await stored())!;
    expect((await api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await api.get(`/games/${id}`)).status).toBe(401);
  });

  it('signs out here and at the hosted UI, back on the page, signed out', { timeout: 30_000 }, async () => {
    const { token } = (await stored())!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === local.url && url.hash === '');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const logout = cognito.requests.findLast((r) => r.path === '/logout')!;
    expect(logout.params).toEqual({ client_id: cognito.clientId, logout_uri: `${local.url}/` });
    expect(await page.evaluate(() => JSON.stringify((globalThis as any).localStorage))).not.toContain(token);
  });

  it('refuses an answer it did not ask for, and says why a sign-in failed', { timeout: 30_000 }, async () => {
    const alert = page.locator('.account .notice.error');
    // A code pushed at the page (a link from elsewhere): its state matches no sign-in begun here.
    const exchanges = cognito.requests.filter((r) => r.path === '/oauth2/token').length;
    await page.goto(`${local.url}/?code=stolen&state=forged`);
    await alert.getByText('the answer does not match a sign-in started on this page').waitFor();
    expect(cognito.requests.filter((r) => r.path === '/oauth2/token')).toHaveLength(exchanges);
    expect(new URL(page.url()).search).toBe('');

    // The hosted UI sends an error back.
    await page.goto(`${local.url}/?error=access_denied&error_description=User%20cancelled`);
    await alert.getByText('Sign-in was cancelled or refused.').waitFor();

    // The token endpoint refuses the code.
    cognito.refuseNextExchange('invalid_grant', 'Code expired');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('carol@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await alert.getByText('Sign-in failed: the sign-in service refused it. Try again.').waitFor();
    expect(await stored()).toBeNull();

    // The token endpoint cannot be reached.
    await page.route(`${cognito.url}/oauth2/token`, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('carol@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await alert
      .getByText('Cannot reach the sign-in service. Check the connection, then try again.')
      .waitFor();
    await page.unroute(`${cognito.url}/oauth2/token`);
    expect(await stored()).toBeNull();
  });
});
