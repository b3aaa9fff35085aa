import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Move } from '../../client/types.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import {
  CHROMIUM,
  launchBrowser,
  NO_CHROMIUM,
  seriousViolations,
  startSite,
  waitForVersion,
} from '../support/browser.js';
import { type Client, client, type Local } from '../support/local.js';
import { hiddenCardsIn, type Recorded, recordResponses } from './responses.js';
import { WITHOUT_AUTOPLAY } from './settings.js';

if (!CHROMIUM) {
  console.log(`web client players tests skipped: ${NO_CHROMIUM}`);
}

/** Where a card can be clicked when cards overlap: its top-left corner, which always shows. */
const CORNER = { x: 8, y: 8 };
/** The read models follow a write within about 2 s locally: a test waits this long at most, polling. */
const READ_MODEL_WAIT = { timeout: 10_000, interval: 250 };

describe.skipIf(!CHROMIUM)('players in the web client', () => {
  let local: Local;
  let api: Client;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const responses: Recorded[] = [];
  let alice: Page;
  let bob: Page;
  const games = { won: '', resigned: '', bob: '' };

  beforeAll(async () => {
    local = await startSite();
    api = client(local.url);
    browser = await launchBrowser();
    const open = async () => {
      const context = await browser.newContext({
        viewport: { width: 1100, height: 900 },
        reducedMotion: 'reduce',
      });
      await context.addInitScript(WITHOUT_AUTOPLAY);
      recordResponses(context, responses);
      contexts.push(context);
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      return page;
    };
    alice = await open();
    bob = await open();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
  });

  /** What the page keeps of the signed-in player (local storage), or null. */
  const stored = (page: Page): Promise<{ name: string; token: string } | null> =>
    page.evaluate(() => JSON.parse((globalThis as any).localStorage.getItem('klondike.player') ?? 'null'));

  const jwtOf = async (page: Page): Promise<string> => {
    const player = await stored(page);
    expect(player, 'signed in').not.toBeNull();
    return player!.token;
  };

  async function signIn(page: Page, name: string): Promise<void> {
    await page.getByLabel('Player name').fill(name);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-player]', { hasText: name.trim() }).waitFor();
  }

  /** Deals through the New game dialog; signed in, the link names the game and no token. */
  async function dealInPage(page: Page, kind: 'seed' | 'deck', value: string): Promise<string> {
    const before = new URL(page.url()).hash;
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByLabel(kind === 'seed' ? 'By seed' : 'A deck of my own').check();
    await page.locator(kind === 'seed' ? 'input[name=seed]' : 'textarea[name=deck]').fill(value);
    await page.getByRole('button', { name: 'Deal' }).click();
    await page.waitForURL((url) => url.hash !== before && url.hash.startsWith('#game='));
    await waitForVersion(page, 0);
    const params = new URLSearchParams(new URL(page.url()).hash.slice(1));
    expect(params.get('token')).toBeNull();
    return params.get('game')!;
  }

  /** The rows of My games, as the page shows them: id and status, top to bottom. */
  const rows = (page: Page) =>
    page.$$eval('tr[data-game]', (trs) =>
      trs.map((tr) => ({ id: tr.getAttribute('data-game')!, status: tr.getAttribute('data-status')! })),
    );

  const stats = (page: Page) =>
    page.$$eval('[data-stat]', (dds) =>
      Object.fromEntries(dds.map((dd) => [dd.getAttribute('data-stat')!, dd.textContent!])),
    );

  /** Refresh, as a player would, and what the page shows once the answer is drawn. */
  async function refreshed<T>(page: Page, read: (page: Page) => Promise<T>): Promise<T> {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForSelector('main.me[aria-busy="false"]');
    return read(page);
  }

  async function openMyGames(page: Page): Promise<void> {
    await page.getByRole('link', { name: 'My games' }).click();
    await page.getByRole('heading', { name: 'My statistics' }).waitFor();
    await page.waitForSelector('main.me[aria-busy="false"]');
  }

  it("signs in by name (one word, as the issuer takes), deals the player's own games (won along a known line, and resigned); a reload keeps the player", {
    timeout: 90_000,
  }, async () => {
    await alice.goto(`${local.url}/`);
    await waitForVersion(alice, 0); // the first visit deals a game at once, anonymous
    const anonymous = new URLSearchParams(new URL(alice.url()).hash.slice(1)).get('game')!;
    // The form asks for what the issuer takes: one word. "John Smith" is refused by both.
    expect(await alice.textContent('.account')).toContain('one word of letters a to z, digits, _ . @ or -');
    const name = alice.getByLabel('Player name');
    await name.fill('John Smith');
    expect(await name.evaluate((input: any) => input.validity.valid)).toBe(false);
    expect((await api.post('/dev/tokens', { player: 'John Smith' })).status).toBe(400);
    // The page says so in words, as the issuer would, without asking it.
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => asked.push(request.url());
    alice.on('request', onRequest);
    await alice.getByRole('button', { name: 'Sign in' }).click();
    await alice
      .getByRole('alert')
      .getByText('A player name is one word of letters a to z (no accents), digits, _ . @ or -.')
      .waitFor();
    alice.off('request', onRequest);
    expect(asked.filter((url) => url.includes('/dev/tokens'))).toEqual([]);
    await alice.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
    await name.fill('John_Smith');
    expect(await name.evaluate((input: any) => input.validity.valid)).toBe(true);
    expect((await api.post('/dev/tokens', { player: 'John_Smith' })).status).toBe(200);
    // Signed in by the keyboard (Enter in the field): the keyboard follows to who is signed in, read
    // out; signed out by the keyboard, it goes back to the field.
    await alice.getByLabel('Player name').fill('alice');
    await alice.getByLabel('Player name').press('Enter');
    await alice.locator('[data-player]', { hasText: 'alice' }).waitFor();
    await expect
      .poll(() => alice.evaluate(() => document.activeElement?.textContent))
      .toBe('Signed in as alice');
    await alice.getByRole('button', { name: 'Sign out' }).press('Enter');
    await expect
      .poll(() => alice.evaluate(() => document.activeElement?.getAttribute('name')))
      .toBe('player');
    await signIn(alice, 'alice');
    const jwt = await jwtOf(alice);

    // A winning line of the fixtures: its first move in the page, with the player's token; the
    // rest through the API with the same token (browser.test.ts plays a whole line by clicks).
    const line = fixtures.lines[1]!;
    games.won = await dealInPage(alice, 'deck', line.deck.join(' '));
    const [first, ...rest] = line.moves as Move[];
    if (first!.type !== 'move') throw new Error('the line is expected to open with a move between piles');
    const cards = alice.locator(`[data-pile="${first!.from}"] [data-index]`);
    await cards.nth((await cards.count()) - (first!.count ?? 1)).click({ position: CORNER });
    await alice.click(`[data-pile="${first!.to}"]`);
    await waitForVersion(alice, 1);
    for (const move of rest) {
      const answer = await api.post(`/games/${games.won}/moves`, move, { authorization: `Bearer ${jwt}` });
      expect(answer.status, JSON.stringify(move)).toBe(200);
    }
    // The page opens the player's game with their sign-in token alone; anyone else may not write.
    await alice.reload();
    await alice.getByText(/You won in \d+ moves/).waitFor();
    await alice.locator('[data-player]', { hasText: 'alice' }).waitFor();
    expect((await api.post(`/games/${games.won}/resign`)).status).toBe(401);

    games.resigned = await dealInPage(alice, 'seed', '3');
    await alice.click('[data-pile="stock"]');
    await waitForVersion(alice, 1);
    await alice.getByRole('button', { name: 'Resign' }).click();
    await alice.getByText('Resigned: the whole deal is shown.').waitFor();
    expect(new Set([games.won, games.resigned, anonymous]).size).toBe(3);
  });

  it('shows My games and My statistics once the read models have caught up: both games, their statuses, the figures', {
    timeout: 60_000,
  }, async () => {
    await openMyGames(alice);
    await expect
      .poll(() => refreshed(alice, rows), READ_MODEL_WAIT)
      .toEqual([
        // Newest first: the resigned game was dealt last. The anonymous game is nobody's.
        { id: games.resigned, status: 'resigned' },
        { id: games.won, status: 'won' },
      ]);
    // A game's row and the player's statistics are two writes of the projector: polled apart.
    await expect
      .poll(() => refreshed(alice, stats), READ_MODEL_WAIT)
      .toMatchObject({
        started: '2',
        won: '1',
        resigned: '1',
        inPlay: '0',
        winRate: '50 %',
        fewestMovesToWin: String(fixtures.lines[1]!.moves.length),
      });
    // Vegas in dollars, as the bar writes it (a won game ends at 52 × $5 − $52).
    expect((await stats(alice)).bestVegas).toBe('$208');
    expect(await alice.textContent('main.me')).toContain('Refresh to see the latest');

    // The filter asks the API for one status.
    await alice.getByLabel('Show').selectOption('won');
    await expect.poll(() => rows(alice)).toEqual([{ id: games.won, status: 'won' }]);
    await alice.getByLabel('Show').selectOption('all');
    await expect.poll(() => rows(alice)).toHaveLength(2);

    // A finished game opens its replay.
    await alice
      .locator(`tr[data-game="${games.won}"]`)
      .getByRole('link', { name: 'Watch the replay' })
      .click();
    await alice.waitForURL(
      (url) => url.hash === `#replay=${games.won}` || url.hash.startsWith(`#replay=${games.won}&`),
    );
    await alice.waitForSelector('output[data-version="0"]');
  });

  it('keeps two players apart: each sees only their own games, and a game in play opens from the list', {
    timeout: 60_000,
  }, async () => {
    await bob.goto(`${local.url}/`);
    await waitForVersion(bob, 0);
    // Spaces around a name, as a paste brings them, are taken off.
    await signIn(bob, '  bob ');
    games.bob = await dealInPage(bob, 'seed', '9');
    await bob.click('[data-pile="stock"]');
    await waitForVersion(bob, 1);
    await openMyGames(bob);
    await expect
      .poll(() => refreshed(bob, rows), READ_MODEL_WAIT)
      .toEqual([{ id: games.bob, status: 'playing' }]);
    await expect
      .poll(() => refreshed(bob, stats), READ_MODEL_WAIT)
      .toMatchObject({
        started: '1',
        won: '0',
        resigned: '0',
        inPlay: '1',
        winRate: '–',
      });

    await alice.goto(`${local.url}/#me`);
    await alice.waitForSelector('main.me[aria-busy="false"] tr[data-game]');
    // Each view names the tab and the history entry.
    expect(await alice.title()).toBe('My games – Klondike');
    expect((await rows(alice)).map((row) => row.id).sort()).toEqual([games.won, games.resigned].sort());

    // Bob's game in play resumes from his list, opened with his sign-in token.
    await bob.locator(`tr[data-game="${games.bob}"]`).getByRole('link', { name: 'Resume' }).click();
    await waitForVersion(bob, 1);
    expect(new URL(bob.url()).hash).toBe(`#game=${games.bob}`);
    // Alice's token does not open it.
    const refused = await api.get(`/games/${games.bob}`, { authorization: `Bearer ${await jwtOf(alice)}` });
    expect(refused.status).toBe(403);
  });

  it('pages through My games with More games, newest first, as the API lists them', {
    timeout: 60_000,
  }, async () => {
    const jwt = await jwtOf(bob);
    for (let seed = 100; seed < 111; seed++) {
      const created = await api.post('/games', { seed }, { authorization: `Bearer ${jwt}` });
      expect(created.status).toBe(201);
    }
    await bob.goto(`${local.url}/#me`);
    await bob.waitForSelector('main.me[aria-busy="false"]');
    await expect.poll(() => refreshed(bob, stats), READ_MODEL_WAIT).toMatchObject({ started: '12' });
    expect(await rows(bob)).toHaveLength(10);
    await bob.getByRole('button', { name: 'More games' }).press('Enter');
    await expect.poll(() => rows(bob)).toHaveLength(12);
    expect(await bob.getByRole('button', { name: 'More games' }).count()).toBe(0);
    // The last page came and its button left: the keyboard goes on to the list it grew.
    await expect
      .poll(() => bob.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label')))
      .toBe('My games');
    const listed = await api.get('/me/games?limit=100', { authorization: `Bearer ${jwt}` });
    const ids = listed.body.games.map((g: { id: string }) => g.id);
    expect((await rows(bob)).map((row) => row.id)).toEqual(ids);
    // Refresh (as the read models' settling does by itself) asks again for every row shown, not the
    // first page alone: the games the player asked for stay.
    await bob.getByRole('button', { name: 'Refresh' }).click();
    await bob.waitForSelector('main.me[aria-busy="false"]');
    expect((await rows(bob)).map((row) => row.id)).toEqual(ids);

    // Back from a game opened from the list: the rows asked for, scrolled where they were.
    await bob.setViewportSize({ width: 1100, height: 500 });
    const scrollY = () => bob.evaluate(() => Math.round((globalThis as any).scrollY as number));
    const last = bob.locator(`tr[data-game="${ids[11]}"]`).getByRole('link', { name: 'Resume' });
    await last.scrollIntoViewIfNeeded();
    const y = await scrollY();
    expect(y).toBeGreaterThan(0);
    await last.click();
    await bob.waitForSelector('.status [data-version]');
    await bob.goBack();
    await bob.waitForSelector('main.me[aria-busy="false"] tr[data-game]');
    expect((await rows(bob)).map((row) => row.id)).toEqual(ids);
    await expect.poll(scrollY).toBe(y);

    // The filter is in the address: Back to the list, or a reload, shows the same games.
    await bob.getByLabel('Show').selectOption('won');
    await expect.poll(() => rows(bob)).toEqual([]);
    expect(new URL(bob.url()).hash).toBe('#me&status=won');
    await bob.reload();
    await bob.waitForSelector('main.me[aria-busy="false"]');
    expect(await bob.getByLabel('Show').inputValue()).toBe('won');
    expect(await rows(bob)).toEqual([]);
    await bob.getByLabel('Show').selectOption('all');
    expect(new URL(bob.url()).hash).toBe('#me');
    await bob.setViewportSize({ width: 1100, height: 900 });
  });

  it('finds no serious or critical accessibility violation (axe-core) in the sign-in form and My games', {
    timeout: 60_000,
  }, async () => {
    const audit = async (page: Page, where: string) =>
      expect(await seriousViolations(page, where)).toEqual([]);
    await audit(bob, 'My games, two pages, signed in');
    await bob.goto(`${local.url}/#game=${games.bob}`);
    await waitForVersion(bob, 1);
    await audit(bob, 'play, signed in');
    const stranger = await contexts[0]!.browser()!.newContext();
    const page = await stranger.newPage();
    await page.goto(`${local.url}/#me`);
    await page.getByLabel('Player name').waitFor();
    await audit(page, 'My games and the sign-in form, signed out');
    await stranger.close();
  });

  it('signs out and forgets the token, and sends none of the inputs still waiting; a reload stays signed out', {
    timeout: 30_000,
  }, async () => {
    const jwt = await jwtOf(bob);
    // Bob's game on the table, each draw held 1.5 s on its way: three clicks, then Sign out.
    await bob.goto(`${local.url}/#game=${games.bob}`);
    const opened = (await api.get(`/games/${games.bob}`, { authorization: `Bearer ${jwt}` })).body.version;
    await waitForVersion(bob, opened);
    await bob.route('**/moves', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    for (let i = 0; i < 3; i++) await bob.locator('[data-pile="stock"]').click();
    await bob.getByRole('button', { name: 'Sign out' }).click();
    await bob.getByLabel('Player name').waitFor();
    await bob.getByText('Signed out.').waitFor();
    const kept = await bob.evaluate(() => JSON.stringify((globalThis as any).localStorage));
    expect(kept).not.toContain(jwt);
    expect(await stored(bob)).toBeNull();
    // Bob's game was opened with his token alone: the page does not resume it signed out.
    await bob.waitForURL((url) => url.hash !== `#game=${games.bob}`);
    // The draw under way when he signed out may land; the two waiting behind it never leave.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const after = (await api.get(`/games/${games.bob}`, { authorization: `Bearer ${jwt}` })).body.version;
    expect(after - opened).toBeLessThanOrEqual(1);
    await bob.unroute('**/moves');
    await bob.reload();
    await bob.getByLabel('Player name').waitFor();
    expect(await bob.locator('[data-player]').count()).toBe(0);
  });

  it('signs the player out, in words, when the API refuses their token, and says when the issuer cannot be reached', {
    timeout: 30_000,
  }, async () => {
    // A token whose signature no longer verifies, as a key rotation or tampering leaves it.
    const player = (await stored(alice))!;
    const [head, body, signature] = player.token.split('.');
    const forged = `${head}.${body}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    await alice.evaluate(
      (value) => (globalThis as any).localStorage.setItem('klondike.player', value),
      JSON.stringify({ ...player, token: forged }),
    );
    await alice.goto(`${local.url}/#me`);
    await alice.reload();
    const alert = alice.locator('.account .notice.error');
    await alert.waitFor();
    const refused = await api.get('/me/stats', { authorization: `Bearer ${forged}` });
    expect(refused.status).toBe(401);
    expect(await alert.textContent()).toContain(
      'Your sign-in is no longer accepted: you have been signed out. Sign in again.',
    );
    expect(await stored(alice)).toBeNull();
    await alice.getByLabel('Player name').waitFor();

    // The issuer does not answer: the page says so.
    await alice.route('**/dev/tokens', (route) => route.abort('connectionrefused'));
    await alice.getByLabel('Player name').fill('alice');
    await alice.getByRole('button', { name: 'Sign in' }).click();
    await alice
      .getByText('Cannot reach the sign-in service. Check the connection, then try again.')
      .waitFor();
    await alice.unroute('**/dev/tokens');
    expect(await stored(alice)).toBeNull();
    // And once it answers again, the player is back with their games.
    await signIn(alice, 'alice');
    await expect.poll(() => rows(alice), READ_MODEL_WAIT).toHaveLength(2);
  });

  it('signs the player out by itself once their token has expired, and says when', {
    timeout: 30_000,
  }, async () => {
    const player = (await stored(alice))!;
    const expiresAt = Date.now() - 60_000;
    await alice.evaluate(
      (value) => (globalThis as any).localStorage.setItem('klondike.player', value),
      JSON.stringify({ ...player, expiresAt }),
    );
    await alice.reload();
    await alice
      .locator('.account .notice.error')
      .getByText(/^Your sign-in expired at .+\. Sign in again\./)
      .waitFor();
    expect(await stored(alice)).toBeNull();
    await alice.getByLabel('Player name').waitFor();
  });

  it("keeps the player's game on the table when their sign-in lapses mid-game, and goes on with it once they sign in again", {
    timeout: 30_000,
  }, async () => {
    await signIn(alice, 'alice');
    // The page on a game first (the last one, or a first deal), so that the deal below is the
    // address change the test waits for.
    await alice.goto(`${local.url}/`);
    await alice.waitForURL((url) => url.hash.startsWith('#game='));
    await alice.locator('.status [data-version]').waitFor();
    const id = await dealInPage(alice, 'seed', '5');
    await alice.locator('[data-pile="stock"]').click();
    await waitForVersion(alice, 1);
    // From now on the API refuses her sign-in token, as it does one that expired meanwhile.
    const player = (await stored(alice))!;
    const forged = `${player.token.slice(0, -2)}${player.token.endsWith('AA') ? 'BB' : 'AA'}`;
    await alice.route('**/games/**', (route) =>
      route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${forged}` } }),
    );
    await alice.locator('[data-pile="stock"]').click();
    await alice
      .locator('.account .notice.error')
      .getByText('Your sign-in is no longer accepted: you have been signed out. Sign in again.')
      .waitFor();
    await alice.unroute('**/games/**');
    // Her game stays where it was: no other deal takes its place, and nothing here opens it. Nor is
    // it the game the next visit resumes, whoever comes.
    expect(new URLSearchParams(new URL(alice.url()).hash.slice(1)).get('game')).toBe(id);
    const last = () => alice.evaluate(() => (globalThis as any).localStorage.getItem('klondike.last'));
    expect(await last()).not.toBe(id);
    // The table says the way on: sign in again (not "this browser has neither"), after a reload too.
    await alice.getByText('Your sign-in has ended: sign in again to go on with this game.').waitFor();
    await alice.reload();
    await alice.getByText('Your sign-in has ended: sign in again to go on with this game.').waitFor();
    await signIn(alice, 'alice');
    await waitForVersion(alice, 1);
    // Opened again: hers to resume again.
    expect(await last()).toBe(id);
    await alice.locator('[data-pile="stock"]').click();
    await waitForVersion(alice, 2);
    expect(new URLSearchParams(new URL(alice.url()).hash.slice(1)).get('game')).toBe(id);
  });

  it('never received a card that was face down while its game was in play, in a game or in a list', () => {
    expect(responses.some((r) => r.path === '/me/games')).toBe(true);
    expect(responses.some((r) => r.path === '/me/stats')).toBe(true);
    return expect(hiddenCardsIn(responses)).resolves.toEqual([]);
  });
});
