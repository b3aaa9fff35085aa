/**
 * The web client in a real browser (Chromium through playwright-core), served by the local
 * runtime exactly as `npm start` serves it: a fresh Vite build, the API beside it, its security
 * headers on. One browser and one server for the whole file, since the machine has two cores.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../client/clock.js';
import type { Move, PlayedMove, View } from '../../client/types.js';
import { cardShort } from '../../client/web/src/cards.js';
import {
  actedWords,
  aimWords,
  doneWords,
  eventWords,
  hintWords,
  letGoWords,
  pickedUpWords,
  SLOW_MS,
  WAITING,
} from '../../client/web/src/words.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import {
  CHROMIUM,
  expectedPiles,
  NO_CHROMIUM,
  seriousViolations,
  shownPiles,
  waitForVersion,
} from '../support/browser.js';
import { type Client, type Local, newGame } from '../support/local.js';
import { hiddenCardsIn, hiddenCardsInPage, recordResponses } from './responses.js';
import { WITHOUT_AUTOPLAY } from './settings.js';
import { useSite } from './site.js';

if (!CHROMIUM) {
  console.log(`web client browser tests skipped: ${NO_CHROMIUM}`);
}

const PILE_ORDER = ['stock', 'waste', 'fC', 'fD', 'fH', 'fS', 't1', 't2', 't3', 't4', 't5', 't6', 't7'];
/** Where a card can be clicked when cards overlap: its top-left corner, which always shows. */
const CORNER = { x: 8, y: 8 };

describe.skipIf(!CHROMIUM)('the web client in Chromium', () => {
  // Motion is the table's test (table.test.ts): here every click acts at once.
  const site = useSite({
    viewport: { width: 1100, height: 900 },
    init: [WITHOUT_AUTOPLAY],
    reducedMotion: true,
  });
  let local: Local;
  let api: Client;
  let browser: Browser;
  let page: Page;
  const responses = site.responses;
  beforeAll(() => {
    ({ local, api, browser, page } = site);
  });

  /** A gate a route handler waits at until the test releases it. */
  function held(): { until: Promise<void>; release: () => void } {
    let release = () => {};
    const until = new Promise<void>((resolve) => {
      release = resolve;
    });
    return { until, release };
  }

  /** The game the page shows, as the API sees it now (with the page's own token). */
  async function currentGame(on: Page = page): Promise<{ id: string; token: string; view: View }> {
    const params = new URLSearchParams(new URL(on.url()).hash.slice(1));
    const id = params.get('game')!;
    const token = params.get('token') ?? (await storedToken(on, id));
    const answer = await api.get(`/games/${id}`, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(200);
    return { id, token, view: answer.body };
  }

  /** The token the page keeps for a game (local storage only). */
  const storedToken = (on: Page, id: string): Promise<string> =>
    on.evaluate((g) => (globalThis as any).localStorage.getItem(`klondike.token.${g}`), id);

  /** Deals through the New game dialog, as a player does. */
  async function dealInPage(kind: 'seed' | 'deck', value: string): Promise<void> {
    const before = new URL(page.url()).hash;
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByLabel(kind === 'seed' ? 'By seed' : 'A deck of my own').check();
    await page.locator(kind === 'seed' ? 'input[name=seed]' : 'textarea[name=deck]').fill(value);
    await page.getByRole('button', { name: 'Deal' }).click();
    await page.waitForURL((url) => url.hash !== before && url.hash.includes('token='));
    await waitForVersion(page, 0);
  }

  /** A seed whose deal offers a move from one column to another, found with POST /replays (nothing stored). */
  async function seedWithColumnMove(
    skip: number[] = [],
  ): Promise<{ seed: number; move: Extract<PlayedMove, { type: 'move' }> }> {
    for (let seed = 1; seed < 200; seed++) {
      if (skip.includes(seed)) continue;
      const { body } = await api.post('/replays', { seed, moves: [] });
      const move = (body.view as View).legalMoves.find(
        (m) => m.type === 'move' && m.from.startsWith('t') && m.to.startsWith('t'),
      );
      if (move?.type === 'move') return { seed, move };
    }
    throw new Error('no seed in 1..199 deals a column-to-column move');
  }

  /**
   * Clicks the `fromEnd`-th last element matching `selector` (the last by default) as a player
   * does, with the mouse, at `at` in it (its middle by default); answers its data-card. The point is
   * first checked to be on that element, nothing drawn over it and nothing moving, which is what
   * locator.click() waits for before it clicks: here in one round trip to the page instead of a
   * dozen, which halves the time of a line of some 200 clicks and saves a third of its CPU (the
   * browser's and this process's).
   */
  async function clickOn(
    selector: string,
    options: { fromEnd?: number; at?: { x: number; y: number } } = {},
  ): Promise<string | null> {
    const { x, y, card } = await page.evaluate(
      ({ selector, fromEnd, at }) => {
        const document = (globalThis as any).document;
        const all = document.querySelectorAll(selector);
        const element = all[all.length - fromEnd];
        if (!element) throw new Error(`no ${selector} to click`);
        const box = element.getBoundingClientRect();
        const x = box.left + (at?.x ?? box.width / 2);
        const y = box.top + (at?.y ?? box.height / 2);
        const hit = document.elementFromPoint(x, y);
        const what = element.outerHTML.slice(0, 80);
        if (!hit || !element.contains(hit)) throw new Error(`${hit?.outerHTML.slice(0, 80)} is over ${what}`);
        if (element.getAnimations().length > 0) throw new Error(`${what} is moving`);
        return { x, y, card: element.getAttribute('data-card') as string | null };
      },
      { selector, fromEnd: options.fromEnd ?? 1, at: options.at ?? null },
    );
    await page.mouse.click(x, y);
    return card;
  }

  const topCards = (view: View, pile: string, count: number) =>
    (pile.startsWith('t') ? view.tableau[Number(pile[1]) - 1]!.cards : view.waste).slice(-count);

  let wonId = '';

  it('plays a winning line of test/fixtures to "won" by clicks alone', { timeout: 120_000 }, async () => {
    await page.goto(`${local.url}/`);
    await waitForVersion(page, 0); // the first visit deals a random game at once
    const line = fixtures.lines[0]!;
    await dealInPage('deck', line.deck.join(' '));
    const { id, token } = await currentGame();
    /** The game's view now, as the API answers its token holder (this request is not the page's). */
    const viewNow = async (): Promise<View> =>
      (await api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).body;
    for (const [i, move] of (line.moves as Move[]).entries()) {
      if (move.type === 'draw' || move.type === 'recycle') {
        await clickOn('[data-pile="stock"]');
      } else {
        const code = (await clickOn(`[data-pile="${move.from}"] [data-index]`, {
          fromEnd: move.count ?? 1,
          at: CORNER,
        }))!;
        await clickOn(`[data-pile="${move.to === 'foundation' ? `f${code[1]}` : move.to}"]`);
      }
      await waitForVersion(page, i + 1);
      // The last move wins the game, which then shows its whole deal.
      if (i + 1 < line.moves.length) expect(await hiddenCardsInPage(page, await viewNow())).toEqual([]);
    }
    await page.getByText(/You won in \d+ moves/).waitFor();
    const { view } = await currentGame();
    expect(view.status).toBe('won');
    expect(Object.values(view.foundations).flat()).toHaveLength(52);
    expect(await shownPiles(page)).toEqual(expectedPiles(view));
    wonId = id;
  });

  it('moves a run by drag and drop', { timeout: 30_000 }, async () => {
    const { seed, move } = await seedWithColumnMove();
    await dealInPage('seed', String(seed));
    const before = (await currentGame()).view;
    const moving = topCards(before, move.from, move.count);
    const cards = page.locator(`[data-pile="${move.from}"] [data-index]`);
    const source = cards.nth((await cards.count()) - move.count);
    await source.dragTo(page.locator(`[data-pile="${move.to}"]`), { sourcePosition: CORNER });
    await waitForVersion(page, 1);
    const after = (await currentGame()).view;
    expect(topCards(after, move.to, move.count)).toEqual(moving);
    expect(await shownPiles(page)).toEqual(expectedPiles(after));
  });

  it('moves a card with the keyboard alone, then undoes and redoes it with the buttons, each said to a screen reader', {
    timeout: 30_000,
  }, async () => {
    const { seed, move } = await seedWithColumnMove([(await seedWithColumnMove()).seed]);
    await dealInPage('seed', String(seed));
    const before = (await currentGame()).view;
    const moving = topCards(before, move.from, move.count);
    const focusedPile = () =>
      page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-pile'));
    // The new deal has the keyboard: its table's one tab stop, the stock.
    await expect.poll(focusedPile).toBe('stock');
    // A refusal said twice is heard twice: the live line's text changes.
    const message = page.locator('.message');
    await page.keyboard.press('u');
    await expect.poll(() => message.textContent()).toBe('There is no move to undo.');
    await page.keyboard.press('u');
    await expect.poll(() => message.textContent()).toBe('There is no move to undo.\u00a0');
    await page.keyboard.press('Tab');
    // Tab back into the table (its one tab stop is the stock), walk to the source, pick up, walk, put down.
    for (let i = 0; i < 20 && (await focusedPile()) !== 'stock'; i++) await page.keyboard.press('Tab');
    const walk = async (from: string, to: string) => {
      const steps = PILE_ORDER.indexOf(to) - PILE_ORDER.indexOf(from);
      for (let i = 0; i < Math.abs(steps); i++)
        await page.keyboard.press(steps > 0 ? 'ArrowRight' : 'ArrowLeft');
    };
    await walk('stock', move.from);
    // What each input did is said in a polite live region, which the page does not show.
    const said = page.locator('.said[aria-live="polite"]');
    for (let i = 1; i < move.count; i++) await page.keyboard.press('ArrowUp');
    // ↑ says what Enter would pick up.
    if (move.count > 1)
      expect(await said.textContent()).toBe(aimWords(before, move.from as never, move.count));
    await page.keyboard.press('Enter');
    expect(await page.locator(`[data-pile="${move.to}"].target`).count()).toBe(1);
    const box = await said.boundingBox();
    expect(box!.width * box!.height).toBeLessThanOrEqual(1);
    expect(await said.textContent()).toBe(pickedUpWords(before, move.from as never, move.count));
    // Esc lets go, and says so; Enter picks them up again, said again.
    await page.keyboard.press('Escape');
    expect(await said.textContent()).toBe(letGoWords(moving[0]!, move.count));
    await page.keyboard.press('Enter');
    expect(await said.textContent()).toBe(pickedUpWords(before, move.from as never, move.count));
    await walk(move.from, move.to);
    await page.keyboard.press('Enter');
    await waitForVersion(page, 1);
    const after = (await currentGame()).view;
    expect(topCards(after, move.to, move.count)).toEqual(moving);
    expect(await said.textContent()).toBe(doneWords(move, before, after));

    await page.getByRole('button', { name: 'Undo' }).click();
    await waitForVersion(page, 2);
    const undone = (await currentGame()).view;
    expect(topCards(undone, move.from, move.count)).toEqual(moving);
    expect(await said.textContent()).toBe(actedWords('undo', after, undone));
    expect(await shownPiles(page)).toEqual(expectedPiles(undone));
    expect(await shownPiles(page)).toEqual(expectedPiles({ ...before, version: 2 }));

    await page.getByRole('button', { name: 'Redo' }).click();
    await waitForVersion(page, 3);
    const redone = (await currentGame()).view;
    expect(topCards(redone, move.to, move.count)).toEqual(moving);
    expect(await said.textContent()).toBe(actedWords('redo', undone, redone));
    expect(await shownPiles(page)).toEqual(expectedPiles(redone));
  });

  it('shows a hint on the table, and a refused move in words', { timeout: 30_000 }, async () => {
    await page.getByRole('button', { name: 'Hint' }).click();
    const message = page.locator('.message');
    const { id, token, view } = await currentGame();
    await message.getByText(/^(Put|Draw|Turn|Take) /).waitFor({ timeout: 15_000 });
    const hint = (await api.get(`/games/${id}/hint`, { authorization: `Bearer ${token}` })).body;
    expect(await message.textContent()).toBe(hintWords(hint, view));
    const hinted = hint.move?.type === 'move' ? [hint.move.from, hint.move.to] : hint.move ? ['stock'] : [];
    for (const pile of hinted) expect(await page.locator(`[data-pile="${pile}"].hint`).count()).toBe(1);
    expect(hinted.length).toBeGreaterThan(0);

    // A column's top card onto its own (empty) foundation: refused unless it is an ace.
    const i = view.tableau.findIndex((column) => column.cards.at(-1)?.[0] !== 'A');
    const card = view.tableau[i]!.cards.at(-1)!;
    await page.locator(`[data-pile="t${i + 1}"] [data-card="${card}"]`).click({ position: CORNER });
    await page.click(`[data-pile="f${card[1]}"]`);
    await message.and(page.locator('.error')).waitFor();
    const refused = await api.post(
      `/games/${id}/moves`,
      { type: 'move', from: `t${i + 1}`, to: `f${card[1]}` },
      { authorization: `Bearer ${token}` },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.rule).toBe('foundation-ascending');
    expect(await message.textContent()).toBe(
      `${cardShort(card)} cannot go home yet: its foundation takes ${cardShort(`A${card[1]}`)} next.`,
    );
    expect((await currentGame()).view.version).toBe(view.version);
    expect(await hiddenCardsInPage(page, view)).toEqual([]);
  });

  // Its waits for the page's words are shorter than the test, so that words that never come fail
  // naming what the test waited for.
  it('says so while a slow server keeps an input waiting, and clears the line once it is played', {
    timeout: 60_000,
  }, async () => {
    const { view } = await currentGame();
    // The next draw reaches the server only once the test has seen the page say it waits (held, not
    // timed: a busy machine could otherwise let it through before the test looks).
    const draw = held();
    await page.route('**/moves', async (route) => {
      await draw.until;
      await route.continue();
    });
    await page.keyboard.press('d');
    const message = page.locator('.message');
    await message.getByText(WAITING).waitFor({ timeout: 20_000 });
    draw.release();
    await waitForVersion(page, view.version + 1);
    await page.unroute('**/moves');
    await expect.poll(() => message.textContent()).toBe('');
    // A hint says what it waits for itself: "Thinking…" stays while the server is slow, past the
    // wait after which any other input says it waits.
    const hint = held();
    await page.route('**/hint', async (route) => {
      await hint.until;
      await route.continue();
    });
    await page.keyboard.press('h');
    await message.getByText('Thinking…').waitFor({ timeout: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 500));
    expect(await message.textContent()).toBe('Thinking…');
    hint.release();
    await expect.poll(() => message.textContent()).not.toBe('Thinking…');
    await page.unroute('**/hint');
  });

  it('resumes a game on reload and from its link in another browser', { timeout: 30_000 }, async () => {
    const { id, token, view } = await currentGame();
    await page.reload();
    await waitForVersion(page, view.version);
    expect(await shownPiles(page)).toEqual(expectedPiles(view));

    const elsewhere = await browser.newContext();
    recordResponses(elsewhere, responses);
    const other = await elsewhere.newPage();
    await other.goto(`${local.url}/#game=${id}&token=${token}`);
    await waitForVersion(other, view.version);
    expect(await shownPiles(other)).toEqual(expectedPiles(view));
    await elsewhere.close();

    // Its replay, by link, in a browser without its token: not open while it is in play, in words.
    const stranger = await browser.newContext();
    recordResponses(stranger, responses);
    const outside = await stranger.newPage();
    await outside.goto(`${local.url}/#replay=${id}`);
    await outside
      .getByRole('alert')
      .getByText(/still being played.*opens to everyone once it is over/)
      .waitFor();
    await stranger.close();

    // A mistyped link is refused in words, and the token kept here still resumes the game.
    await page.goto(`${local.url}/#game=${id}&token=${'x'.repeat(token.length)}`);
    await page.getByText(/opens only from/).waitFor();
    await page.goto(`${local.url}/#game=${id}`);
    await waitForVersion(page, view.version);
    expect(await shownPiles(page)).toEqual(expectedPiles(view));

    // Its replay, while it is in play, has no deal to show: no empty "The deal" to open.
    await page.goto(`${local.url}/#replay=${id}`);
    await page.waitForSelector('output[data-version="0"]');
    expect(await page.locator('details.deal').count()).toBe(0);
  });

  it('leaves the keyboard where it was on a first visit, an arrow key reaching the table; a link opened while it deals, or before it asks for a deal, stays', {
    timeout: 30_000,
  }, async () => {
    const fresh = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    recordResponses(fresh, responses);
    const visitor = await fresh.newPage();
    await visitor.goto(`${local.url}/`);
    await waitForVersion(visitor, 0);
    const focused = () =>
      visitor.evaluate(() => {
        const element = (globalThis as any).document.activeElement;
        return element?.getAttribute('data-pile') ?? element?.tagName;
      });
    // No ring on the table that the visitor never chose.
    expect(await focused()).toBe('BODY');
    await visitor.keyboard.press('ArrowRight');
    expect(await focused()).toBe('stock');
    await visitor.keyboard.press('ArrowRight');
    expect(await focused()).toBe('waste');

    // A first visit whose deal is slow to come, and a link opened meanwhile: the link's game stays.
    const { id, token } = await newGame(api, { seed: 8 });
    const slow = await fresh.newPage();
    await slow.route('**/games', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await slow.goto(`${local.url}/#replay=${id}`);
    await slow.evaluate(() => (globalThis as any).localStorage.clear());
    const dealing = slow.waitForRequest((request) => request.url().endsWith('/games'));
    const dealt = slow.waitForResponse((response) => response.url().endsWith('/games'));
    await slow.goto(`${local.url}/`);
    // The link is opened once the deal is on its way (not before the page has asked for one).
    await dealing;
    await slow.evaluate((hash) => {
      (globalThis as any).location.hash = hash;
    }, `#game=${id}&token=${token}`);
    await waitForVersion(slow, 0);
    await dealt;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(new URLSearchParams(new URL(slow.url()).hash.slice(1)).get('game')).toBe(id);

    // A link opened before the page has even asked for its deal (the page's timers held, so that it
    // has drawn itself but not yet run what follows): the link's game opens, and nothing is dealt.
    const early = await fresh.newPage();
    await early.goto(`${local.url}/#replay=${id}`);
    await early.evaluate(() => (globalThis as any).localStorage.clear());
    const deals: string[] = [];
    early.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/games')) deals.push(request.url());
    });
    await early.clock.install();
    await early.clock.pauseAt(Date.now() + 1000);
    await early.goto(`${local.url}/`);
    await early.evaluate((hash) => {
      (globalThis as any).location.hash = hash;
    }, `#game=${id}&token=${token}`);
    await early.clock.resume();
    await waitForVersion(early, 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(new URLSearchParams(new URL(early.url()).hash.slice(1)).get('game')).toBe(id);
    expect(deals).toEqual([]);
    await fresh.close();
  });

  it('resigns once the player confirms, though another window played on meanwhile', {
    timeout: 30_000,
  }, async () => {
    const { id, auth, token } = await newGame(api, { seed: 3 });
    await page.goto(`${local.url}/#game=${id}&token=${token}`);
    await waitForVersion(page, 0);
    expect((await api.post(`/games/${id}/moves`, { type: 'draw' }, auth)).status).toBe(200);
    await page.getByRole('button', { name: 'Resign' }).click();
    await expect.poll(async () => (await api.get(`/games/${id}`, auth)).body.status).toBe('resigned');
    await waitForVersion(page, 2);
  });

  it('replays the won game by link: Next, Previous, the arrow keys, the scrubber and Play, each frame as GET ?at=N', {
    timeout: 60_000,
  }, async () => {
    expect(wonId).not.toBe('');
    const final = (await api.get(`/games/${wonId}`)).body as View;
    const check = async (version: number) => {
      await page.waitForSelector(`output[data-version="${version}"]`);
      const at = (await api.get(`/games/${wonId}?at=${version}`)).body as View;
      expect(await shownPiles(page), `version ${version}`).toEqual(expectedPiles(at));
      // A finished game shows its whole deal in every frame: no card is drawn face down.
      expect(Object.values(await shownPiles(page)).flat()).not.toContain('down');
    };
    await page.goto(`${local.url}/#replay=${wonId}`);
    await check(0);
    // The frame's version is in one element: the bar under it carries none.
    expect(await page.locator('[data-version]').count()).toBe(1);
    // The table stays while the next frame loads (its cards slide from one to the next): the same
    // element all along, never a "Loading" in its place.
    await page.locator('.table').evaluate((table: any) => {
      table.dataset.kept = 'yes';
    });
    for (let v = 1; v <= 3; v++) {
      await page.getByRole('button', { name: 'Next' }).click();
      await check(v);
    }
    expect(await page.locator('.table[data-kept="yes"]').count()).toBe(1);
    // A screen reader hears where the replay is and what the step did.
    expect(await page.locator('main.replay .said[aria-live="polite"]').textContent()).toBe(
      `Step 3 of ${final.version}: ${await page.locator('.event').textContent()}`,
    );
    await page.getByRole('button', { name: 'Previous' }).click();
    await check(2);
    await page.keyboard.press('ArrowRight');
    await check(3);
    const n = final.version - 7;
    // A scrubber is dragged in one go: set its value and say so, as the browser does for a drag.
    await page.getByLabel('Step').evaluate((input: any, value) => {
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, n);
    await check(n);
    await page.keyboard.press('End');
    await check(final.version);
    // A key with a modifier is not a step (Alt+← is the browser's Back).
    await page.keyboard.press('Control+ArrowLeft');
    await page.keyboard.press('Shift+Home');
    await check(final.version);
    // Next on the step before the last: the button it disables hands the keyboard to the scrubber.
    await page.keyboard.press('ArrowLeft');
    await check(final.version - 1);
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await check(final.version);
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label')))
      .toBe('Step');
    // Keys pressed faster than the page redraws each take their step.
    await page.keyboard.press('Home');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await check(5);
    // Play: the replay plays itself from where it is, frame after frame, until Pause.
    await page.keyboard.press('Home');
    await check(0);
    await page.getByRole('button', { name: 'Play' }).click();
    // Each frame shows for 600 ms and Playwright's waits look every 500 ms: on a busy machine a wait
    // for frame 2 itself could miss it, so the test waits for frame 2 or a later one.
    const frame = async () => Number(await page.getAttribute('output[data-version]', 'data-version'));
    await expect.poll(frame).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await frame();
    await page.waitForTimeout(800); // longer than a frame's turn when playing
    expect(await frame()).toBe(paused);
    mkdirSync(join(tmpdir(), 'klondike-web-screenshots'), { recursive: true });
    await page.screenshot({ path: join(tmpdir(), 'klondike-web-screenshots', 'replay.png'), fullPage: true });
  });

  it('replays a long game from a link to a step past its first page: the time since its first action, what an undo took back', {
    timeout: 60_000,
  }, async () => {
    const { id, auth } = await newGame(api, { seed: 3 });
    const act = async (path: string, body?: unknown) =>
      expect((await api.post(`/games/${id}/${path}`, body, auth)).status).toBe(200);
    await act('moves', { type: 'draw' });
    // A second at least between the first action and the rest: the clock of a frame past the
    // first page of frames must count from the first action, which that page does not hold.
    await new Promise((wait) => setTimeout(wait, 1_100));
    for (let i = 0; i < 102; i++) {
      await act('undo');
      await act('redo');
    }
    await act('resign');
    const frames = (await api.get(`/games/${id}/replay?from=0&to=3`)).body.frames;
    const at = (v: number) => api.get(`/games/${id}/replay?from=${v}&to=${v}`).then((r) => r.body.frames[0]);
    const [first, last] = [await at(1), await at(205)];
    const time = clock(Date.parse(last.event.at) - Date.parse(first.event.at));
    expect(time).not.toBe('0:00');
    // The game that does not come (the connection lost): said, with Try again, which loads it.
    const game = (url: URL) => url.pathname === `/games/${id}`;
    await page.route(game, (route) => route.abort('connectionrefused'));
    await page.goto(`${local.url}/#replay=${id}&at=205`);
    const lost = page.getByRole('alert').filter({ hasText: 'cannot be reached' });
    await lost.waitFor({ timeout: 20_000 });
    await page.unroute(game);
    await lost.getByRole('button', { name: 'Try again' }).click({ timeout: 10_000 });
    await page.waitForSelector('output[data-version="205"]');
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => page.locator('.status .time').textContent()).toContain(time);
    // An undo's step says what it took back, as the table shows it.
    await page.goto(`${local.url}/#replay=${id}&at=2`);
    await page.waitForSelector('output[data-version="2"]');
    const words = eventWords(frames[2].event, frames[2].view, frames[1].view);
    expect(words).toMatch(/^Undo: .+ back in the stock$/);
    expect(await page.locator('.event').textContent()).toBe(words);
    // A page of frames that does not come: the step shown stays said, and End asks again.
    const later = (url: URL) =>
      url.pathname.endsWith(`/games/${id}/replay`) && url.searchParams.get('from') === '200';
    await page.route(later, (route) => route.abort());
    await page.keyboard.press('End');
    await page.getByRole('alert').waitFor();
    expect(await page.locator('output[data-version]').textContent()).toBe('2');
    expect(new URL(page.url()).hash).toBe(`#replay=${id}&at=2`);
    await page.unroute(later);
    await page.keyboard.press('End');
    await page.waitForSelector('output[data-version="206"]');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('finds no serious or critical accessibility violation (axe-core) in play, the dialogs and the replay', {
    timeout: 60_000,
  }, async () => {
    const audit = async (where: string) => expect(await seriousViolations(page, where)).toEqual([]);
    await page.goto(`${local.url}/#replay=${wonId}`);
    await page.waitForSelector('output[data-version="0"]');
    await audit('replay');
    await page.getByRole('link', { name: 'Back to the table' }).click();
    await page.waitForSelector('.status [data-version]');
    await dealInPage('seed', '7');
    await page.locator('[data-pile="t7"] [data-index]').click({ position: CORNER });
    await audit('play, a card picked up');
    await page.getByRole('button', { name: 'New game' }).click();
    await audit('new game dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Settings' }).click();
    await audit('settings dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Help' }).click();
    await audit('help');
    await page.keyboard.press('Escape');
  });

  it("deals a Klondike-Solver deck pasted in groups of three digits, as the 156 digits' own cards", {
    timeout: 30_000,
  }, async () => {
    const deck = fixtures.lines[1]!.deck as string[];
    const digits = deck.map(
      (code) =>
        `${String('A23456789TJQK'.indexOf(code[0]!) + 1).padStart(2, '0')}${'CDHS'.indexOf(code[1]!) + 1}`,
    );
    await dealInPage('deck', digits.join(' '));
    const { view } = await currentGame();
    expect(view.tableau[0]!.cards).toEqual([deck[0]]);
    expect(view.tableau[6]!.cards).toEqual([deck[27]]);
  });

  it('never received, nor showed in its HTML, a card that was face down while the game was in play', async () => {
    expect(responses.length).toBeGreaterThan(100);
    expect(await hiddenCardsIn(responses)).toEqual([]);
  });
});
