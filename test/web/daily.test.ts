/**
 * The Daily view in the web client (Chromium through playwright-core), against the local runtime on
 * a `--data` folder: today's deal played from it (and a second visit answering the same game),
 * the table without Hint or analysis while the day lasts (Autocomplete offered without a hint once
 * only the columns are left), today's standing and the player's rank,
 * the name on the leaderboards with a refusal in words, names drawn as text and never as HTML;
 * then the runtime restarted on the same folder a day on (KLONDIKE_CLOCK_OFFSET_S), where that
 * day's leaderboard opens each entry's replay by a click. One runtime and one browser for the file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Move, View } from '../../client/types.js';
import { dayOf, nextDay } from '../../domain/index.js';
import { keepDailyDeal } from '../../functions/store/daily.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { CHROMIUM, NO_CHROMIUM, waitForVersion } from '../support/browser.js';
import { hiddenCardsIn, hiddenCardsInPage } from './responses.js';
import { WITHOUT_AUTOPLAY } from './settings.js';
import { useSite } from './site.js';

if (!CHROMIUM) console.log(`web daily tests skipped: ${NO_CHROMIUM}`);

const DAY_S = 86_400;
const [line] = fixtures.lines;
const moves = line!.moves as Move[];
/** The read models follow a write within about 2 s locally: a test waits this long at most, polling. */
const READ_MODEL_WAIT = { timeout: 10_000, interval: 250 };
/** A name a player may choose: an apostrophe, a hyphen, Greek and Chinese letters. */
const NAME = "Zoë O'Brien-Ωμέγα 李";

/**
 * Every `request` the page made whose path matches, in order (the hint and analysis routes must
 * never be asked while the day lasts).
 */
const asked: string[] = [];

describe.skipIf(!CHROMIUM)('the Daily view', () => {
  const site = useSite({
    viewport: { width: 1100, height: 900 },
    init: [WITHOUT_AUTOPLAY],
    dataDir: true,
    reducedMotion: true,
  });
  let page: Page;
  const today = dayOf(Date.now());
  const ids = { alice: '', bob: '', carol: '' };
  const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });

  beforeAll(async () => {
    page = site.page;
    page.on('request', (request) => asked.push(`${request.method()} ${new URL(request.url()).pathname}`));
    // Today's deal is one with a known winning line, kept as the schedule would keep it.
    await keepDailyDeal(today, line!.deck, new Date().toISOString());
  });

  const jwtOf = async (): Promise<string> => {
    const stored = await page.evaluate(() =>
      JSON.parse((globalThis as any).localStorage.getItem('klondike.player') ?? 'null'),
    );
    expect(stored, 'signed in').not.toBeNull();
    return stored.token as string;
  };

  async function signIn(name: string): Promise<void> {
    await page.getByLabel('Player name').fill(name);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-player]', { hasText: name }).waitFor();
  }

  const gameInUrl = () => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('game');

  /** The Daily view's Refresh, until `read` gives what is expected (the read models follow the log). */
  const refreshed = <T>(read: () => Promise<T>) =>
    expect.poll(async () => {
      await page.locator('main.daily > .toolbar').getByRole('button', { name: 'Refresh' }).click();
      await page.locator('[data-board][aria-busy="false"]').waitFor();
      return read();
    }, READ_MODEL_WAIT);

  /** The leaderboard's rows as shown: rank, name, and the game when a replay is linked. */
  const board = () =>
    page.$$eval('.board tbody tr', (rows) =>
      rows.map((row) => ({
        rank: row.getAttribute('data-rank'),
        player: row.querySelector('[data-name]')!.textContent,
        game: row.getAttribute('data-game'),
        replay: row.querySelector('a')?.textContent ?? null,
      })),
    );

  it("plays today's deal from the Daily view: one attempt, no Hint and no hint asked while the day lasts", {
    timeout: 60_000,
  }, async () => {
    await page.goto(`${site.local.url}/#daily`);
    await page.getByRole('heading', { name: /^Today's deal: / }).waitFor();
    expect(await page.getAttribute('[data-today]', 'data-today')).toBe(today);
    expect(await page.textContent('main.daily')).toContain('Sign in (at the top of the page) to play');
    await signIn('alice');
    await page.getByRole('button', { name: "Play today's deal" }).click();
    await page.waitForURL((url) => url.hash.startsWith('#game='));
    await waitForVersion(page, 0);
    ids.alice = gameInUrl()!;
    // The link names no token: the player's sign-in opens their game.
    expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token')).toBeNull();
    expect((await site.api.get(`/games/${ids.alice}`)).status).toBe(401);

    // No Hint while the day lasts, and the table says why; H asks nothing either.
    const hint = page.getByRole('button', { name: 'Hint' });
    await expect.poll(() => hint.isDisabled()).toBe(true);
    expect(await page.textContent('main.play > .message')).toContain(
      "This is today's deal: no hints and no analysis until the day is over",
    );
    // The line's first two moves are draws: clicks on the stock.
    expect(moves.slice(0, 2)).toEqual([{ type: 'draw' }, { type: 'draw' }]);
    await page.click('[data-pile="stock"]');
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, 2);
    await page.keyboard.press('h');
    expect(await page.textContent('main.play > .message')).toContain('no hints');
  });

  it('a second visit answers the same game, which the sign-in token opens, at its version', {
    timeout: 30_000,
  }, async () => {
    await page.getByRole('link', { name: 'Daily deal' }).click();
    const resume = page.getByRole('button', { name: "Resume today's deal" });
    await resume.waitFor();
    await resume.click();
    await page.waitForURL((url) => url.hash === `#game=${ids.alice}`);
    await waitForVersion(page, 2);
    const answers = site.responses.filter((record) => record.path === '/daily/games');
    const statuses = await Promise.all(
      answers.map(async (record) => JSON.parse(await record.body).token === undefined),
    );
    // The first answer carried the game's token (201), the second none (200, the same game).
    expect(statuses).toEqual([false, true]);
  });

  it("finishes by Autocomplete without a hint, then shows today's standing and the rank, with no replay before the day is over", {
    timeout: 60_000,
  }, async () => {
    // Alice plays the line on through the API until only the columns are left, every card face up
    // (stock and waste empty): then the table offers Autocomplete without a hint, and it wins.
    const jwt = await jwtOf();
    const onlyColumns = (view: View) =>
      view.stock.count === 0 &&
      view.waste.length === 0 &&
      view.tableau.every((column) => column.hidden === 0);
    let view: View | undefined;
    for (const move of moves.slice(2)) {
      const answer = await site.api.post(`/games/${ids.alice}/moves`, move, bearer(jwt));
      expect(answer.status, JSON.stringify(move)).toBe(200);
      view = answer.body;
      if (onlyColumns(view!)) break;
    }
    expect(view!.status).toBe('playing');
    expect(onlyColumns(view!)).toBe(true);
    await page.reload();
    await waitForVersion(page, view!.version);
    await page.getByRole('button', { name: 'Autocomplete' }).click();
    await page.getByText(/You won in \d+ moves/).waitFor();
    const won = (await site.api.get(`/games/${ids.alice}`, bearer(jwt))).body as View;
    expect(won.status).toBe('won');
    // Bob wins too, along the whole line and with two actions more (an undo and a redo): second.
    expect(won.version).toBeLessThan(moves.length + 2);
    const bob = bearer(await site.local.issuer!.tokenFor('bob'));
    const created = await site.api.post('/daily/games', undefined, bob);
    expect(created.status).toBe(201);
    ids.bob = created.body.id;
    for (const [i, move] of moves.entries()) {
      expect((await site.api.post(`/games/${ids.bob}/moves`, move, bob)).status).toBe(200);
      if (i === 0) {
        expect((await site.api.post(`/games/${ids.bob}/undo`, undefined, bob)).status).toBe(200);
        expect((await site.api.post(`/games/${ids.bob}/redo`, undefined, bob)).status).toBe(200);
      }
    }

    // The finished game on the table: won, but no analysis (nor its request) while the day lasts.
    expect(await page.textContent('.over')).toContain("The analysis of today's deal");
    expect(await page.locator('[data-analysis]').count()).toBe(0);

    await page.getByRole('link', { name: "The day's leaderboard" }).click();
    await page.locator(`[data-board="${today}"]`).waitFor();
    await refreshed(() => page.getAttribute('[data-my-rank]', 'data-my-rank', { timeout: 1000 })).toBe('1');
    // Bob's win reaches the day's counts through the projector, maybe after Alice's rank did.
    await refreshed(() => page.textContent('.me-today')).toMatch(
      new RegExp(`You won today's deal in \\d+ moves \\(${won.version} actions, \\d+:\\d\\d\\): rank 1 of 2`),
    );
    expect(await page.textContent('[data-standing]')).toContain(
      'So far 2 players have played it, and 2 won it',
    );
    await refreshed(board).toEqual([
      { rank: '1', player: expect.stringMatching(/^Player [A-Z2-9]{6}$/), game: null, replay: null },
      { rank: '2', player: expect.stringMatching(/^Player [A-Z2-9]{6}$/), game: null, replay: null },
    ]);
    expect(await page.textContent('.board tbody')).toContain('after midnight UTC');
    expect(await page.locator('[data-daily-record]').textContent()).toMatch(/1 played, 1 won/);
    const secretAsked = asked.filter((request) => /\/(hint|analysis)$/.test(request));
    expect(secretAsked).toEqual([]);
  });

  it('sets the name on the leaderboards, and words the refusal of a name that is not one', {
    timeout: 30_000,
  }, async () => {
    const field = page.getByLabel('Leaderboard name');
    const said = page.locator('[data-name-said]');
    // Markup short enough to pass the length the page checks itself: the server refuses its characters.
    await field.fill('<img src=x onerror=1>');
    await page.getByRole('button', { name: 'Save name' }).click();
    const refusal =
      "A name is 1 to 24 characters: letters of any alphabet (at most 4 accents or marks on one), digits, spaces and - _ . ' only, and not one like “Player 7KQ2ZD”, the name of a player who chose none.";
    await expect.poll(() => said.textContent()).toBe(refusal);
    expect(await said.getAttribute('role')).toBe('alert');
    // Too long, or shaped like the name of a player who chose none: said as it is, nothing sent.
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => asked.push(request.url());
    page.on('request', onRequest);
    for (const [name, words] of [
      ['x'.repeat(25), 'A name has at most 24 characters; this one has 25.'],
      ['   ', 'A name needs at least one character.'],
      ['Player 7KQ2ZD', 'A name like “Player 7KQ2ZD” is that of a player who chose none: choose another.'],
    ] as const) {
      await field.fill(name);
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect.poll(() => said.textContent()).toBe(words);
    }
    page.off('request', onRequest);
    expect(asked.filter((url) => url.endsWith('/me/profile'))).toEqual([]);
    // One the page cannot judge (a Cyrillic а in Player): the server refuses it, in the words above.
    await field.fill('Plаyer 7KQ2ZD');
    const answer = page.waitForResponse(
      (response) => response.url().endsWith('/me/profile') && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save name' }).click();
    expect((await answer).status()).toBe(400);
    await expect.poll(() => said.textContent()).toBe(refusal);

    await field.fill(`  ${NAME} `);
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => said.textContent()).toContain('Saved');
    expect(await page.textContent('[data-display-name]')).toBe(NAME);
    await refreshed(async () => (await board())[0]?.player).toBe(NAME);
    // Drawn as text: the cell holds the name's characters and no element.
    const cell = page.locator('.board tbody tr').first().locator('[data-name]');
    expect(await cell.evaluate((td) => td.childElementCount)).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
  });

  it('draws every name as text, never as HTML, whatever a leaderboard answers', {
    timeout: 30_000,
  }, async () => {
    // A stand-in answer with names no server would keep: the page must show them as they are.
    const hostile = [
      `"><img src=x onerror="window.__pwned=1"><b>bold</b>`,
      `</td><script>window.__pwned=2</script>`,
      `'); window.__pwned=3; //`,
    ];
    await page.route('**/daily/*/leaderboard*', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          date: today,
          players: 3,
          won: 3,
          next: null,
          entries: hostile.map((player, i) => ({
            rank: i + 1,
            player,
            actions: 100 + i,
            moves: 90,
            // Ranks apart by a millisecond: each time shows its milliseconds, or all would read 1:00.
            elapsedMs: 60_000 + i,
            finishedAt: new Date().toISOString(),
            gameId: null,
          })),
        }),
      }),
    );
    try {
      await page.locator('main.daily > .toolbar').getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(async () => (await board()).map((row) => row.player)).toEqual(hostile);
      expect(await page.locator('main.daily img, main.daily b, main.daily script').count()).toBe(0);
      expect(
        await page.$$eval('.board [data-name]', (cells) => cells.map((td) => td.childElementCount)),
      ).toEqual([0, 0, 0]);
      expect(
        await page.$$eval('.board tbody tr', (rows) => rows.map((tr) => tr.children[3]!.textContent)),
      ).toEqual(['1:00.000', '1:00.001', '1:00.002']);
      expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    } finally {
      await page.unroute('**/daily/*/leaderboard*');
    }
  });

  it('a resigned daily game shows nothing of its deal while the day lasts', { timeout: 30_000 }, async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('carol');
    await page.goto(`${site.local.url}/#daily`);
    await page.getByRole('button', { name: "Play today's deal" }).click();
    await waitForVersion(page, 0);
    ids.carol = gameInUrl()!;
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByText("Resigned. Today's deal is shown once the day is over.").waitFor();
    expect(await page.locator('[data-analysis]').count()).toBe(0);
    expect(await page.locator('[data-card="down"]').count()).toBeGreaterThan(0);
    const view = (await site.api.get(`/games/${ids.carol}`, bearer(await jwtOf()))).body as View;
    expect(view.status).toBe('resigned');
    expect(await hiddenCardsInPage(page, view)).toEqual([]);
    expect(await hiddenCardsIn(site.responses)).toEqual([]);
  });

  it('finds no serious or critical accessibility violation (axe-core) in the Daily view', {
    timeout: 30_000,
  }, async () => {
    await page.goto(`${site.local.url}/#daily`);
    await page.locator('[data-board][aria-busy="false"] .board').waitFor();
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
    const session = await page.context().newCDPSession(page);
    await session.send('Runtime.evaluate', { expression: axeSource });
    const { result } = await session.send('Runtime.evaluate', {
      expression: `axe.run(document.querySelector('.page'), { resultTypes: ['violations'] }).then((r) => JSON.stringify(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '))))`,
      awaitPromise: true,
      returnByValue: true,
    });
    expect(JSON.parse(result.value as string)).toEqual([]);
    // On a phone the leaderboard scrolls sideways: the keyboard reaches it (scrollable-region-focusable).
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const { result: phone } = await session.send('Runtime.evaluate', {
        expression: `axe.run(document.querySelector('.page'), { resultTypes: ['violations'] }).then((r) => JSON.stringify(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)))`,
        awaitPromise: true,
        returnByValue: true,
      });
      expect(JSON.parse(phone.value as string)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('goes to a day typed in the Day field on Enter, not at each key; a date no calendar has is no day', {
    timeout: 30_000,
  }, async () => {
    // A page of its own: a link followed within the page draws the Daily view anew (a new visit),
    // and a field focused just before that would be gone, the keyboard with it.
    await page.goto(`${site.local.url}/#daily=${today}`);
    await page.reload();
    await page.locator(`[data-board="${today}"][aria-busy="false"]`).waitFor();
    const field = page.locator('input[name=day]');
    await field.focus();
    await page.keyboard.press('ArrowDown');
    // Stepped, not gone: the page and the keyboard stay where they are.
    await expect
      .poll(() => field.evaluate((input) => input === (globalThis as any).document.activeElement))
      .toBe(true);
    expect(new URL(page.url()).hash).toBe(`#daily=${today}`);
    // A day written in, then Enter: gone there.
    const before = new Date(Date.parse(`${today}T00:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
    await field.fill(before);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === `#daily=${before}`);
    await page.goto(`${site.local.url}/#daily=2026-02-30`);
    await page.getByRole('heading', { name: 'Leaderboard of that day' }).waitFor();
    expect(await page.getByRole('link', { name: 'Previous day' }).count()).toBe(0);
    // No day at all: the way back is to today's.
    await page.getByRole('link', { name: "Today's leaderboard" }).click();
    await page.waitForURL((url) => url.hash === `#daily=${today}`);
  });

  describe('the next day, on the same --data folder', () => {
    beforeAll(() => site.restart(DAY_S), 60_000);

    it("shows the finished day's leaderboard, each entry's replay opening by a click", {
      timeout: 60_000,
    }, async () => {
      await page.goto(`${site.local.url}/#daily=${today}`);
      await page.getByRole('heading', { name: /^Leaderboard of / }).waitFor();
      // Today is the next day now: a new deal, nobody on it yet.
      expect(await page.getAttribute('[data-today]', 'data-today')).toBe(nextDay(today));
      expect(await page.textContent('[data-standing]')).toBe('No one has played it yet.');
      await page.locator('[data-board][aria-busy="false"] .board').waitFor();
      expect(await board()).toEqual([
        { rank: '1', player: NAME, game: ids.alice, replay: 'Watch' },
        { rank: '2', player: expect.stringMatching(/^Player /), game: ids.bob, replay: 'Watch' },
      ]);
      expect(await page.textContent('[data-day-standing]')).toContain('3 players played this deal; 2 won it');
      for (const id of [ids.alice, ids.bob]) {
        await page
          .locator(`.board tr[data-game="${id}"]`)
          .getByRole('link', { name: 'Watch the replay' })
          .click();
        await page.waitForURL((url) => url.hash.startsWith(`#replay=${id}`));
        await page.waitForSelector('output[data-version="0"]');
        await page.getByRole('button', { name: 'Next' }).click();
        await page.waitForSelector('output[data-version="1"]');
        // The replay shows the whole deal now: its face-down cards drawn face up.
        expect(await page.locator('[data-card="down"]').count()).toBe(0);
        await page.goBack();
        await page.locator('[data-board][aria-busy="false"] .board').waitFor();
      }
      // The day before it had no daily deal: said in words.
      await page.getByRole('link', { name: 'Previous day' }).click();
      await expect
        .poll(() => page.locator('main.daily [role=alert]').textContent())
        .toBe('There was no daily deal that day: the daily deals began after it.');
      // From there, no day further back (none had a deal either): the way on is today's leaderboard.
      expect(await page.getByRole('link', { name: 'Previous day' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: "Today's leaderboard" }).count()).toBe(1);
      // And a day to come: not yet.
      await page.goto(`${site.local.url}/#daily=${nextDay(nextDay(today))}`);
      await expect
        .poll(() => page.locator('main.daily [role=alert]').textContent())
        .toBe('That day has not come yet: its deal is kept secret until it begins (midnight UTC).');
      // From there, the way back is to today, not to another day that has not come.
      expect(await page.getByRole('link', { name: 'Previous day' }).count()).toBe(0);
      await page.getByRole('link', { name: "Today's leaderboard" }).click();
      // The server's today: the next day, on the clock of this restart.
      await page.waitForURL((url) => url.hash === `#daily=${nextDay(today)}`);
    });
  });
});
