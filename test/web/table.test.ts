/**
 * "A table people enjoy", in Chromium (playwright-core) against the local runtime serving a fresh
 * build: the table fits four windows with the longest column Klondike can hold, every input is
 * applied in order, cards move (and do not with reduced motion), every message is in a card
 * player's words, the analysis shows after a resignation and a win, and Settings survive a reload.
 * One browser and one runtime for the file.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Analysis, View } from '../../client/types.js';
import { cardShort } from '../../client/web/src/cards.js';
import { AUTOCOMPLETE_OFFERED, NO_AUTOCOMPLETE_WORDS, OVER_WORDS } from '../../client/web/src/words.js';
import { RULES } from '../../domain/violations.js';
import { PROBLEM_TYPES } from '../../functions/http/problem.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { CHROMIUM, NO_CHROMIUM, waitForVersion } from '../support/browser.js';
import { type Client, type Local, newGame } from '../support/local.js';
import { ALL, DEAD_END, LONGEST_COLUMN, REVEAL, TOPS, TWO_EIGHTS } from './decks.js';
import { hiddenCardsIn } from './responses.js';
import { useSite } from './site.js';

if (!CHROMIUM) console.log(`web table tests skipped: ${NO_CHROMIUM}`);

const WINDOWS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
];

/**
 * In every page: each call of Element.animate (what the table's motion uses) is counted with its
 * duration, its card and its first transform, and every text the page shows a player in its message
 * places and its labels is kept.
 */
const WATCH = `
  window.__animations = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    window.__animations.push({ duration: typeof options === 'number' ? options : options?.duration ?? 0,
      card: this.getAttribute('data-card'), from: keyframes?.[0]?.transform ?? null });
    return animate.call(this, keyframes, options);
  };
  window.__said = new Set();
  window.__versions = [];
  const SAID = '.message, .lost, .notice, [role=alert], .analysis p, .finished, .line-bar, .event, label, .panel';
  new MutationObserver(() => {
    for (const element of document.querySelectorAll(SAID)) {
      const text = element.textContent.trim();
      if (text) window.__said.add(text);
    }
    const version = document.querySelector('.status [data-version]')?.getAttribute('data-version');
    if (version !== undefined && window.__versions.at(-1) !== version) window.__versions.push(version);
  }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
`;

/** What no message may hold: pile codes, card codes, HTTP and JSON words, rule and problem codes. */
const CODES = [
  /\b(t[1-7]|f[CDHS])\b/,
  /(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])/,
  /\b(If-Match|ETag|Authorization|token|schema|body|JSON|HTTP|problem|status|version|undefined|null)\b/i,
  /\b(400|401|403|404|408|409|412|413|422|429|500|503)\b/,
  ...[...Object.keys(RULES), ...Object.keys(PROBLEM_TYPES)]
    .filter((code) => code.includes('-'))
    .map((code) => new RegExp(`\\b${code}\\b`)),
];

describe.skipIf(!CHROMIUM)('a table people enjoy', () => {
  const site = useSite({ viewport: WINDOWS[0]!, init: [WATCH] });
  let local: Local;
  let api: Client;
  let browser: Browser;
  let page: Page;
  const responses = site.responses;
  let resignedAnalysis: Analysis | undefined;
  beforeAll(() => {
    ({ local, api, browser, page } = site);
  });

  const said = (on: Page = page): Promise<string[]> =>
    on.evaluate(() => [...((globalThis as any).__said as Set<string>)]);
  const animations = (
    on: Page = page,
  ): Promise<{ duration: number; card: string | null; from: string | null }[]> =>
    on.evaluate(() => (globalThis as any).__animations);
  /** The first seed whose deal does (or does not) show an ace in the columns, asked of POST /replays (which stores nothing). */
  async function seedShowingAnAce(shows: boolean): Promise<number> {
    for (let seed = 1; ; seed++) {
      const { body } = await api.post('/replays', { seed, moves: [] });
      if (body.view.tableau.some((c: { cards: string[] }) => c.cards[0]![0] === 'A') === shows) return seed;
    }
  }

  /**
   * Two frames (time for a resize to reach the table's measures and be drawn), then no slide or turn
   * still running: what is measured is where the cards rest, however slowly a busy machine draws.
   */
  const settle = async (on: Page) => {
    await on.evaluate(() => {
      const frame = (globalThis as any).requestAnimationFrame;
      return new Promise((done) => frame(() => frame(done)));
    });
    await on.waitForFunction(() =>
      (globalThis as any).document
        .getAnimations()
        .every((a: { playState: string }) => a.playState !== 'running'),
    );
  };

  /** Ticks or unticks a box in Settings, as a player does. */
  async function setting(label: string, on: boolean) {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel(label).setChecked(on);
    await page.getByRole('button', { name: 'Done' }).click();
  }

  /**
   * Until the returned function is called, each answer to a move reaches the page `ms` late: what
   * the player does meanwhile is an input made while a request is in flight.
   */
  async function slowMoves(ms: number, on: Page = page): Promise<() => Promise<void>> {
    const late = async (route: Route) => {
      await new Promise((wait) => setTimeout(wait, ms));
      await route.continue();
    };
    await on.route('**/moves', late);
    return () => on.unroute('**/moves', late);
  }

  /** The bar as the page shows it: each item's name and value. */
  const bar = (on: Page = page): Promise<Record<string, string>> =>
    on.$$eval('.status > div', (items) =>
      Object.fromEntries(
        items.map((item) => [item.querySelector('dt')!.textContent, item.querySelector('dd')!.textContent]),
      ),
    );

  const events = async (id: string, token: string): Promise<string[]> =>
    (await api.get(`/games/${id}/events?limit=1000`, { authorization: `Bearer ${token}` })).body.events.map(
      (e: { type: string }) => e.type,
    );
  const open = async (id: string, token: string, on: Page = page) => {
    const link = `${local.url}/#game=${id}&token=${token}`;
    if (on.url() === link) await on.reload();
    else await on.goto(link);
    const { body } = await api.get(`/games/${id}`, { authorization: `Bearer ${token}` });
    await waitForVersion(on, body.version);
    return body as View;
  };

  /**
   * The window shows the whole table without scrolling, every card inside it, and each card of a
   * column (or of the waste's fan) leaves the rank in its corner in view: the next card begins
   * below (or right of) it.
   */
  async function checkFits(on: Page, where: string) {
    // Measured at rest: the slides of the last move have ended.
    await on.evaluate(() =>
      Promise.all((globalThis as any).document.getAnimations().map((a: any) => a.finished)),
    );
    const found = await on.evaluate(() => {
      const d = (globalThis as any).document;
      const w = globalThis as any;
      const problems: string[] = [];
      const root = d.scrollingElement;
      if (root.scrollHeight > w.innerHeight + 1 || root.scrollWidth > w.innerWidth + 1)
        problems.push(`scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
      for (const card of d.querySelectorAll('[data-card]')) {
        const box = card.getBoundingClientRect();
        if (box.right > w.innerWidth + 1 || box.bottom > w.innerHeight + 1 || box.left < 0 || box.top < 0)
          problems.push(`${card.dataset.card} outside the window`);
      }
      const overlaps = (pile: string, horizontal: boolean) => {
        const cards = [...d.querySelectorAll(`[data-pile="${pile}"] [data-card]`)].filter(
          (c: any) => c.dataset.card !== 'down' && c.getBoundingClientRect().width > 0,
        );
        for (let i = 0; i + 1 < cards.length; i++) {
          const corner = cards[i].querySelector('.corner').getBoundingClientRect();
          const next = cards[i + 1].getBoundingClientRect();
          const covered = horizontal ? corner.right > next.left + 0.5 : corner.bottom > next.top + 0.5;
          const stacked = horizontal && next.left === cards[i].getBoundingClientRect().left;
          if (covered && !stacked) problems.push(`${pile}: the rank of ${cards[i].dataset.card} is covered`);
        }
      };
      for (let c = 1; c <= 7; c++) overlaps(`t${c}`, false);
      overlaps('waste', true);
      return problems;
    });
    expect(found, where).toEqual([]);
  }

  it('fits 1280x800, 1366x768, 1920x1080 and a 390x844 phone with 13 face-up cards over 6 face-down, in play and once over', {
    timeout: 90_000,
  }, async () => {
    const { id, token, auth } = await newGame(api, {
      deck: LONGEST_COLUMN.deck,
      rules: LONGEST_COLUMN.rules,
    });
    for (const move of LONGEST_COLUMN.moves)
      expect((await api.post(`/games/${id}/moves`, move, auth)).status).toBe(200);
    const view = await open(id, token);
    // The ace on top of column 7 would go home by itself after the next draw: not in this test.
    await setting('Safe cards go home by themselves', false);
    expect(view.tableau[6]).toMatchObject({ hidden: 6 });
    expect(view.tableau[6]!.cards).toHaveLength(13);
    // Three more draws fan the waste.
    for (let i = 0; i < 3; i++) await page.click('[data-pile="stock"]');
    await waitForVersion(page, view.version + 3);

    const sizes = async (phase: string) => {
      for (const size of WINDOWS) {
        await page.setViewportSize(size);
        await page.waitForFunction(
          (width) =>
            (globalThis as any).document.querySelector('.table').getBoundingClientRect().width <= width,
          size.width,
        );
        await settle(page); // the table measures itself on resize
        await checkFits(page, `${phase} at ${size.width}x${size.height}`);
        if (size.width === 390) {
          const table = await page.locator('.table').boundingBox();
          expect(table!.height, `${phase}: the phone's table`).toBeGreaterThanOrEqual(0.6 * size.height);
        }
        // The title, not shown on a narrow window, is still the page's heading for screen readers.
        await expect
          .poll(() => page.getByRole('heading', { level: 1, name: 'Klondike' }).count(), {
            message: `${phase} at ${size.width}`,
          })
          .toBe(1);
        // The buttons keep to whole rows: none is left alone on a row of its own.
        const rows = await page.$$eval('.toolbar .actions > :is(button, a)', (buttons) => {
          const tops = new Map<number, number>();
          for (const b of buttons) {
            const top = Math.round(b.getBoundingClientRect().top);
            tops.set(top, (tops.get(top) ?? 0) + 1);
          }
          return [...tops.values()];
        });
        expect(Math.min(...rows), `${phase} at ${size.width}: buttons a row ${rows}`).toBeGreaterThan(1);
      }
      await page.setViewportSize(WINDOWS[0]!);
    };
    await sizes('in play');
    // The fan: the waste's top three cards side by side, the first at the pile's left edge.
    const fan = async () =>
      page.$$eval('[data-pile="waste"] [data-card]', (cards) => {
        const pile = cards[0]!.parentElement!.getBoundingClientRect().left;
        return [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left - pile)))];
      });
    await settle(page);
    const three = await fan();
    expect(three).toHaveLength(3);
    expect(three[0]).toBe(0);
    expect(Math.abs(three[2]! - three[1]! - (three[1]! - three[0]!))).toBeLessThanOrEqual(1);
    await page.keyboard.press('u');
    await waitForVersion(page, view.version + 4);
    await settle(page);
    expect(await fan()).toEqual(three.slice(0, 2));

    const analysed = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/analysis'));
    await page.getByRole('button', { name: 'Resign' }).click();
    resignedAnalysis = await (await analysed).json();
    await page.locator('[data-analysis][data-verdict]').waitFor({ timeout: 10_000 });
    // The keyboard was on Resign, which the game over disables: it goes on to the game's end.
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.className))
      .toBe('finished');
    // Resigned: the six face-down cards are drawn face up, and every rank still shows.
    const column = await page.$$eval('[data-pile="t7"] [data-card]', (cards) =>
      cards.map((c) => c.getAttribute('data-card')),
    );
    expect(column).toHaveLength(19);
    expect(column).not.toContain('down');
    await sizes('resigned');
    await setting('Safe cards go home by themselves', true);
  });

  // The analysis is the solver's within 3 s, so two requests may differ under load (one "unknown"):
  // the page is checked against the answer it received.
  it('gives the analysis after a resignation, as the API answered it', { timeout: 30_000 }, async () => {
    const game = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('game')!;
    const analysis = resignedAnalysis!;
    expect(['winnable', 'lost', 'unknown']).toContain(analysis.verdict);
    const shown = page.locator('[data-analysis]');
    expect(await shown.getAttribute('data-verdict')).toBe(analysis.verdict);
    const last = analysis.lastWinnableVersion;
    expect(await shown.getAttribute('data-last-winnable')).toBe(
      typeof last === 'number' ? String(last) : null,
    );
    const { body: final } = await api.get(`/games/${game}`);
    // A resignation is an event of its own: a deal winnable just before it still was when resigned.
    if (typeof last === 'number' && last < final.version - 1)
      expect(await shown.textContent()).toContain(
        `You could still have won until step ${last} of the replay`,
      );
    else if (analysis.verdict === 'winnable')
      expect(await shown.textContent()).toContain('still could when you resigned');
    if (analysis.line) await page.getByRole('button', { name: 'Watch the winning line' }).waitFor();

    // The same deal again, under its own rules (not those of Settings), as a new game.
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByLabel('This deal again, under its own rules').check();
    await page
      .getByText(
        'Rules: draw 1, passes without limit, cards may come back from the foundations, as that game had them.',
      )
      .waitFor();
    await page.getByRole('button', { name: 'Deal', exact: true }).click();
    await page.waitForFunction((was) => !(globalThis as any).location.hash.includes(was), game);
    const again = new URLSearchParams(new URL(page.url()).hash.slice(1));
    const { body: dealt } = await api.get(`/games/${again.get('game')}`, {
      authorization: `Bearer ${again.get('token')}`,
    });
    await waitForVersion(page, 0);
    expect(dealt).toMatchObject({ version: 0, status: 'playing', rules: LONGEST_COLUMN.rules });
    const faceUp = [0, 7, 13, 18, 22, 25, 27].map((at) => LONGEST_COLUMN.deck[at]);
    expect(dealt.tableau.map((column: { cards: string[] }) => column.cards[0])).toEqual(faceUp);
  });

  it('applies every input in order: four quick presses of U undo four moves, two quick clicks on the stock draw twice, H while a draw is out hints after it', {
    timeout: 30_000,
  }, async () => {
    // A deal that shows no ace: no card goes home by itself between the draws.
    const { id, token } = await newGame(api, { seed: await seedShowingAnAce(false) });
    await open(id, token);
    for (let i = 0; i < 4; i++) await page.keyboard.press('d');
    for (let i = 0; i < 4; i++) await page.keyboard.press('u');
    await waitForVersion(page, 8);
    expect(await events(id, token)).toEqual([
      'dealt',
      'drawn',
      'drawn',
      'drawn',
      'drawn',
      'undone',
      'undone',
      'undone',
      'undone',
    ]);
    // A fifth: the view says nothing is left to undo, and the page says so without asking.
    const undos: string[] = [];
    const count = (request: { url(): string }) => {
      if (request.url().endsWith('/undo')) undos.push(request.url());
    };
    page.on('request', count);
    await page.keyboard.press('u');
    await page.locator('.message').getByText('There is no move to undo.').waitFor();
    page.off('request', count);
    expect(undos).toEqual([]);
    await page.locator('[data-pile="stock"]').dblclick();
    await waitForVersion(page, 10);
    expect((await events(id, token)).slice(-2)).toEqual(['drawn', 'drawn']);

    // H pressed while a draw is out: the hint is asked once the draw has landed, and shown.
    const fast = await slowMoves(300);
    await page.keyboard.press('d');
    await page.keyboard.press('h');
    await waitForVersion(page, 11);
    await fast();
    await page
      .locator('.message')
      .getByText(/^(Put|Draw|Turn|Take|No move)/)
      .waitFor({ timeout: 15_000 });
  });

  it('applies a queued input to the card the player chose, or to none: a drop or a click made while a draw is out never moves the card the draw brings', {
    timeout: 30_000,
  }, async () => {
    const { id, token } = await newGame(api, TWO_EIGHTS);
    await open(id, token);
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, 1);
    const message = page.locator('.message');
    // 8♣ dragged onto 9♥ while the next draw, which puts 8♠ on the waste, is out.
    let fast = await slowMoves(800);
    await page.click('[data-pile="stock"]');
    await page
      .locator('[data-pile="waste"] [data-card="8C"]')
      .dragTo(page.locator('[data-pile="t1"]'), { sourcePosition: { x: 6, y: 6 } });
    await waitForVersion(page, 2);
    await fast();
    await message.getByText('8♣ had moved by the time this move came through: nothing was moved.').waitFor();
    // The same by clicks: 8♣, then column 1, pressed while a draw is out.
    await page.keyboard.press('u');
    await waitForVersion(page, 3);
    fast = await slowMoves(800);
    await page.click('[data-pile="stock"]');
    await page.click('[data-pile="waste"] [data-card="8C"]', { position: { x: 6, y: 6 } });
    await page.click('[data-pile="t1"]');
    await waitForVersion(page, 4);
    await fast();
    await message
      .getByText('8♣ had moved by the time this press came through: nothing was picked up.')
      .waitFor();
    expect(await events(id, token)).toEqual(['dealt', 'drawn', 'drawn', 'undone', 'drawn']);
    expect(
      (await api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).body.tableau[0].cards,
    ).toEqual(['9H']);
  });

  it('sends safe cards home by themselves after a move (the setting, on by default), through autoplay; one Undo takes back both, one Redo brings both back', {
    timeout: 30_000,
  }, async () => {
    // A deal with an ace face up: after the first draw it goes home by itself.
    const { id, token } = await newGame(api, { seed: await seedShowingAnAce(true) });
    await open(id, token);
    await page.click('[data-pile="stock"]');
    await expect.poll(() => events(id, token)).toEqual(['dealt', 'drawn', 'moved']);
    const { body } = await api.get(`/games/${id}`, { authorization: `Bearer ${token}` });
    expect(Object.values(body.foundations).flat()).toHaveLength(1);
    // The draw and the ace sent home after it are one action.
    await waitForVersion(page, 2);
    await page.keyboard.press('u');
    await waitForVersion(page, 4);
    const undone = (await api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).body;
    expect([undone.moves, undone.canUndo]).toEqual([0, false]);
    await page.keyboard.press('r');
    await waitForVersion(page, 6);
    expect((await events(id, token)).slice(3)).toEqual(['undone', 'undone', 'redone', 'redone']);
  });

  it('moves cards after a move (slides of at most 250 ms), and none under reduced motion or its setting', {
    timeout: 30_000,
  }, async () => {
    const before = (await animations()).length;
    const version = Number(await page.getAttribute('.status [data-version]', 'data-version'));
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, version + 1);
    const moved = (await animations()).slice(before);
    expect(moved.length).toBeGreaterThan(0);
    expect(Math.max(...moved.map((a) => a.duration))).toBeLessThanOrEqual(250);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    const still = (await animations()).length;
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, version + 2);
    expect((await animations()).length).toBe(still);
    await page.emulateMedia({ reducedMotion: 'no-preference' });

    await setting('Reduced motion', true);
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, version + 3);
    expect((await animations()).length).toBe(still);
    await setting('Reduced motion', false);
  });

  it('picks up the card just drawn when it is pressed on its way: motion never delays the next input', {
    timeout: 30_000,
  }, async () => {
    // Seed 0: no ace face up nor among the first three drawn, so no card goes home by itself.
    const { id, token } = await newGame(api, { seed: 0 });
    await open(id, token);
    await page.click('[data-pile="stock"]');
    await waitForVersion(page, 1);
    // The draw's motion held at its start: the drawn card is still at the stock, a sliver turning over.
    await page.evaluate(() => {
      for (const animation of (globalThis as any).document.getAnimations()) {
        animation.pause();
        animation.currentTime = 0;
      }
    });
    // Where the waste's top card lands (offsets leave out the motion's transforms), near its corner.
    const { x, y, code } = await page.evaluate(() => {
      const cards = (globalThis as any).document.querySelectorAll('[data-pile="waste"] [data-card]');
      const top = cards[cards.length - 1];
      const box = top.offsetParent.getBoundingClientRect();
      return { x: box.left + top.offsetLeft + 8, y: box.top + top.offsetTop + 8, code: top.dataset.card };
    });
    await page.mouse.move(x, y);
    await page.mouse.down();
    try {
      await page.mouse.move(x + 20, y + 20, { steps: 4 });
      expect(await page.getAttribute(`[data-pile="waste"] [data-card="${code}"]`, 'class')).toMatch(
        /\bpicked\b/,
      );
    } finally {
      // Put back where it was: nothing is played (and the next test finds the button up).
      await page.mouse.move(x, y, { steps: 4 });
      await page.mouse.up();
    }
    expect(await page.getAttribute('.status [data-version]', 'data-version')).toBe('1');
  });

  it('shows in the bar the time from the first action (by the log), the moves, the score chosen and the pass; turns a revealed card over', {
    timeout: 30_000,
  }, async () => {
    const { id, token } = await newGame(api, { deck: REVEAL.deck, rules: REVEAL.rules });
    // A page of its own, whose clock the test moves on.
    const other = await site.context.newPage();
    await other.clock.install();
    await open(id, token, other);
    expect(await bar(other)).toEqual({ Time: '0:00', Moves: '0', Score: '0', Pass: '1 of 3', Draw: '3' });
    // The time counts from the first action, not from the deal nor from when the page opened.
    await other.clock.fastForward(90_000);
    const timed = other.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/events'));
    await other.locator('[data-pile="t2"] [data-card="QH"]').click({ position: { x: 8, y: 8 } });
    await other.click('[data-pile="t1"]');
    await waitForVersion(other, 1);
    await timed;
    // The card turned up turns over where it lies.
    expect(await animations(other)).toContainEqual(
      expect.objectContaining({ card: REVEAL.turned, from: 'scaleX(0.05)' }),
    );
    await other.clock.fastForward(65_000);
    // Counted from the first action by the log's time, with the page's clock set against the server's.
    await expect.poll(async () => (await bar(other)).Time, { timeout: 5_000 }).toMatch(/^1:0[4-6]$/);
    const moved = (await api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).body as View;
    expect(moved.score.standard).toBeGreaterThan(0);
    expect(await bar(other)).toMatchObject({ Moves: '1', Score: String(moved.score.standard) });

    // Through the stock (8 draws of 3) and once more: the second pass of 3; the score in dollars.
    for (let i = 0; i < 9; i++) await other.keyboard.press('d');
    await waitForVersion(other, 10);
    await other.getByRole('button', { name: 'Settings' }).click();
    await other.getByLabel('Score shown').selectOption('vegas');
    await other.getByRole('button', { name: 'Done' }).click();
    const recycled = (await api.get(`/games/${id}`, { authorization: `Bearer ${token}` })).body as View;
    expect(recycled.score.vegas).toBe(-52);
    expect(await bar(other)).toMatchObject({ Moves: String(recycled.moves), Vegas: '−$52', Pass: '2 of 3' });
    expect(recycled.moves).toBeGreaterThan(1);
    await other.getByRole('button', { name: 'Settings' }).click();
    await other.getByLabel('Score shown').selectOption('standard');
    await other.getByRole('button', { name: 'Done' }).click();
    await other.close();
  });

  it('gives a short help: the rules and the keys', async () => {
    await page.getByRole('button', { name: 'Help' }).click();
    const help = page.getByRole('dialog', { name: 'How to play' });
    const text = await help.textContent();
    for (const words of [
      'foundations up by suit, from Ace to King',
      'build down in alternating colours',
      'Only a King',
      'A face-down card turns up',
      'Click the stock to draw',
      'another pass',
      'The house rules: draw three, three passes through the deck',
      '← → choose a pile',
      '↑ ↓ more or fewer cards',
      'Enter picks up and puts down',
      'Esc lets go',
      'D draw or recycle, U undo, R redo, H hint, A autoplay, C autocomplete, when offered',
    ])
      expect(text).toContain(words);
    // It opens on its title, at its top (on its one button it opened scrolled to the end).
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe(
      'How to play',
    );
    expect(await help.evaluate((dialog: any) => dialog.scrollTop)).toBe(0);
    await help.getByRole('button', { name: 'Close' }).click();
  });

  it('offers Autocomplete only once it can succeed, plays it card after card, celebrates the win and analyses it', {
    timeout: 120_000,
  }, async () => {
    const line = fixtures.lines[0]!;
    const { id, token, auth } = await newGame(api, { deck: line.deck });
    // Not offered at the deal; C then is said, not ignored.
    await open(id, token);
    expect(await page.getByRole('button', { name: 'Autocomplete' }).count()).toBe(0);
    await page.keyboard.press('c');
    await page.locator('.message', { hasText: NO_AUTOCOMPLETE_WORDS }).waitFor();
    // Played along the line until every card is known (no card face down, the stock seen once).
    let played = 0;
    for (const move of line.moves) {
      const { body } = await api.post(`/games/${id}/moves`, move, auth);
      played++;
      if (
        body.tableau.every((c: { hidden: number }) => c.hidden === 0) &&
        (body.stock.count === 0 || body.pass >= 2)
      )
        break;
    }
    expect(played).toBeLessThan(line.moves.length - 5);
    await open(id, token);
    // Autoplay sends the safe cards home; then the finish is proved and offered, and the offer said.
    await page.keyboard.press('a');
    const offer = page.getByRole('button', { name: 'Autocomplete' });
    await offer.waitFor({ timeout: 15_000 });
    await page.locator('.offered', { hasText: AUTOCOMPLETE_OFFERED }).waitFor({ state: 'attached' });
    const from = Number(await page.getAttribute('.status [data-version]', 'data-version'));
    await page.evaluate(() => {
      (globalThis as any).__versions = [];
    });
    const moved = (await animations()).length;
    // The server too busy to analyse the won game, three asks in a row (the page's own retries
    // included): the page asks again a while later, and the analysis comes.
    let busy = 3;
    const isAnalysis = (url: URL) => url.pathname.endsWith('/analysis');
    await page.route(isAnalysis, (route) =>
      busy-- > 0
        ? route.fulfill({
            status: 503,
            headers: { 'retry-after': '1', 'content-type': 'application/problem+json' },
            body: JSON.stringify({ type: '/problems/busy', title: 'Busy', status: 503 }),
          })
        : route.continue(),
    );
    await offer.click();
    // Card after card: the bar goes through the versions between, not from the first to the last.
    const between = async () => {
      const seen = (await page.evaluate(() => (globalThis as any).__versions as string[])).map(Number);
      return seen.filter((v) => v > from + 1).length;
    };
    await expect.poll(between, { timeout: 10_000 }).toBeGreaterThan(2);
    // Motion never holds up an input: a click ends the show, and the won table is there at once.
    await page.click('[data-pile="stock"]');
    await page.getByText(/^You won in \d+ moves/).waitFor({ timeout: 5_000 });
    // A key on the finished game is said, not ignored.
    await page.keyboard.press('u');
    await page.locator('.message', { hasText: OVER_WORDS }).waitFor();
    const { body: won } = await api.get(`/games/${id}`);
    expect(won.status).toBe('won');
    expect(won.version - from).toBeGreaterThan(5);
    // The celebration: the foundations' cards leap.
    const leaps = (await animations()).slice(moved).filter((a) => a.duration > 1000);
    expect(leaps.length).toBeGreaterThanOrEqual(52);

    // Waits as long as a busy machine may need, but short of the test's own timeout, so that a page
    // that never shows these fails naming what it waited for.
    const shown = page.locator('[data-analysis][data-verdict]');
    await shown.waitFor({ timeout: 45_000 });
    await page.unroute(isAnalysis);
    expect(busy).toBeLessThan(0);
    const analysis = (await api.get(`/games/${id}/analysis`)).body;
    expect(await shown.getAttribute('data-verdict')).toBe(analysis.verdict);
    expect(analysis.verdict).toBe('winnable');
    expect(await shown.getAttribute('data-last-winnable')).toBe(String(won.version));
    // A won game's line is the player's own, not the solver's; this one undid nothing.
    expect(await shown.textContent()).toContain('as you showed: watch your winning line.');

    // The winning line plays itself, move after move, animated; a view of it that cannot be
    // fetched (the connection lost) is said, and Try again fetches it.
    const before = (await animations()).length;
    const isLine = (url: URL) => url.pathname === '/replays';
    await page.route(isLine, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Watch the winning line' }).click();
    const lost = page.locator('.winning-line [role="alert"]', { hasText: 'cannot be reached' });
    await lost.waitFor({ timeout: 20_000 });
    await page.unroute(isLine);
    await lost.getByRole('button', { name: 'Try again' }).click({ timeout: 10_000 });
    await lost.waitFor({ state: 'detached', timeout: 20_000 });
    // The move the bar shows: each shows for 450 ms, and Playwright's waits look every 500 ms, so
    // a wait for one of them (Move 3) can miss it on a busy machine; the count only goes up.
    const shownMove = async () =>
      Number(/^Move (\d+) of \d+/.exec((await page.locator('.line-bar span').textContent()) ?? '')?.[1] ?? 0);
    await expect.poll(shownMove, { timeout: 45_000 }).toBeGreaterThanOrEqual(3);
    expect((await animations()).length).toBeGreaterThan(before);
    await page.getByRole('button', { name: 'Back to the game' }).click();
  });

  it('ends the show of an autocomplete before it begins when an input, queued behind it, runs before its frames come', {
    timeout: 60_000,
  }, async () => {
    const line = fixtures.lines[1]!;
    const { id, token, auth } = await newGame(api, { deck: line.deck });
    for (const move of line.moves) {
      const { body } = await api.post(`/games/${id}/moves`, move, auth);
      if (
        body.tableau.every((c: { hidden: number }) => c.hidden === 0) &&
        (body.stock.count === 0 || body.pass >= 2)
      )
        break;
    }
    await open(id, token);
    await page.keyboard.press('a');
    const offer = page.getByRole('button', { name: 'Autocomplete' });
    await offer.waitFor({ timeout: 15_000 });
    /** A promise and what settles it. */
    const signal = () => {
      let settle = () => {};
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      return { settled, settle: () => settle() };
    };
    // The frames of the show held back until the input has been made and its table drawn.
    const held = signal();
    const answered = signal();
    const isReplay = (url: URL) => url.pathname.endsWith('/replay');
    await page.route(isReplay, async (route) => {
      await held.settled;
      await route.continue().catch(() => {});
      answered.settle();
    });
    // The autocomplete's answer held back too, until the click on the stock is queued behind it.
    const queued = signal();
    const isAutocomplete = (url: URL) => url.pathname.endsWith('/autocomplete');
    await page.route(isAutocomplete, async (route) => {
      await queued.settled;
      await route.continue().catch(() => {});
    });
    try {
      await offer.click();
      await page.click('[data-pile="stock"]');
      queued.settle();
      await page.getByText(/^You won in \d+ moves/).waitFor({ timeout: 15_000 });
      const won = await page.getAttribute('.status [data-version]', 'data-version');
      await page.evaluate(() => {
        (globalThis as any).__versions = [];
      });
      held.settle();
      await answered.settled;
      // Time for a show to start drawing its frames, were it to start.
      await page.waitForTimeout(500);
      const drawn: string[] = await page.evaluate(() => (globalThis as any).__versions);
      expect(drawn.filter((version) => version !== won)).toEqual([]);
    } finally {
      queued.settle();
      held.settle();
      await page.unroute(isReplay);
      await page.unroute(isAutocomplete);
    }
  });

  it('says when no line can win any more, and shows the stock spent when no pass is left', {
    timeout: 30_000,
  }, async () => {
    const { id, token } = await newGame(api, DEAD_END);
    await open(id, token);
    for (let i = 0; i < 8; i++) await page.keyboard.press('d');
    await waitForVersion(page, 8);
    await page.locator('[data-pile="stock"] .placeholder.spent').waitFor();
    expect(await page.getAttribute('[data-pile="stock"]', 'aria-label')).toBe(
      'Stock, empty: no pass is left',
    );
    await page.click('[data-pile="stock"]');
    await page.locator('.message').getByText('No pass is left').waitFor();
    await page.getByRole('button', { name: 'Hint' }).click();
    await page.locator('.lost').getByText('No line can win this game any more').waitFor();
    expect((await events(id, token)).length).toBe(9);
  });

  it('offers Try again when a game cannot be read (the connection lost), and none for a game that is not there', {
    timeout: 30_000,
  }, async () => {
    const { id, token } = await newGame(api, { seed: 5 });
    const game = (url: URL) => url.pathname === `/games/${id}`;
    await page.route(game, (route) => route.abort('connectionrefused'));
    await page.goto(`${local.url}/#game=${id}&token=${token}`);
    await page.locator('.message.error', { hasText: 'cannot be reached' }).waitFor({ timeout: 10_000 });
    await page.unroute(game);
    await page.getByRole('button', { name: 'Try again' }).click({ timeout: 10_000 });
    await waitForVersion(page, 0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    // Unknown: said, and nothing to try again.
    await page.goto(`${local.url}/#game=00000000-0000-4000-8000-000000000000&token=${token}`);
    await page.locator('.message.error').waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-pile]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  });

  it('words every message of a session in a card player’s words: no codes, no HTTP', {
    timeout: 60_000,
  }, async () => {
    // A refused move, a hint, nothing to undo or redo, an autoplay with nothing to do.
    const { id, token, auth } = await newGame(api, { seed: 7 });
    const view = await open(id, token);
    const i = view.tableau.findIndex((c) => c.cards.at(-1)?.[0] !== 'A');
    const card = view.tableau[i]!.cards.at(-1)!;
    await page.locator(`[data-pile="t${i + 1}"] [data-card="${card}"]`).click({ position: { x: 8, y: 8 } });
    await page.click(`[data-pile="f${card[1]}"]`);
    await page.locator('.message.error').waitFor();
    await page.keyboard.press('u');
    await page.locator('.message').getByText('There is no move to undo.').waitFor();
    await page.keyboard.press('r');
    await page
      .locator('.message')
      .getByText(/no move to redo/)
      .waitFor();
    await page.getByRole('button', { name: 'Hint' }).click();
    await page
      .locator('.message')
      .getByText(/^(Put|Draw|Turn|Take)/)
      .waitFor({ timeout: 15_000 });
    const autoplayed = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/autoplay'));
    await page.getByRole('button', { name: 'Autoplay' }).click();
    await autoplayed;
    await page.locator('.message').getByText(/home/).waitFor();

    // Another tab plays on: the next click is refused as stale, and the table catches up; the click
    // made while that one was out is not dropped, but draws on the table caught up.
    expect((await api.post(`/games/${id}/moves`, { type: 'draw' }, auth)).status).toBe(200);
    const fast = await slowMoves(300);
    await page.click('[data-pile="stock"]');
    await page.click('[data-pile="stock"]');
    const draws = async () => (await events(id, token)).filter((type) => type === 'drawn').length;
    await expect.poll(draws).toBe(2);
    await waitForVersion(page, (await api.get(`/games/${id}`, auth)).body.version);
    await fast();
    expect(await page.locator('.message').textContent()).toMatch(/another window or tab/);

    // A deck the API refuses, and a seed out of range, through the New game dialog.
    const deal = async (kind: string, field: string, value: string) => {
      await page.getByRole('button', { name: 'New game' }).click();
      await page.getByLabel(kind).check();
      await page.locator(field).fill(value);
      await page.getByRole('button', { name: 'Deal' }).click();
      await page.locator('dialog .error').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
    };
    await deal('A deck of my own', 'textarea[name=deck]', 'AS AS 2D');
    await deal('By seed', 'input[name=seed]', '99999999999');
    // A deck written as its label shows cards, with rank and suit symbols, is dealt.
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByLabel('A deck of my own').check();
    await page.locator('textarea[name=deck]').fill(ALL.map(cardShort).join(' '));
    await page.getByRole('button', { name: 'Deal' }).click();
    await page.waitForURL((url) => !url.hash.includes(id));
    const params = new URLSearchParams(new URL(page.url()).hash.slice(1));
    const { body: dealt } = await api.get(`/games/${params.get('game')}`, {
      authorization: `Bearer ${params.get('token')}`,
    });
    expect(dealt.tableau.map((column: { cards: string[] }) => column.cards[0])).toEqual(
      TOPS.map((i) => ALL[i]),
    );

    // Links that do not open a game: without its token, with a wrong one, an unknown game.
    for (const hash of [`#game=${id}`, `#game=${id}&token=wrong`, '#game=no-such-game&token=x']) {
      const other = await browser.newPage();
      await other.addInitScript(WATCH);
      await other.goto(`${local.url}/${hash}`);
      await other.locator('.message.error').waitFor();
      for (const text of await said(other))
        for (const code of CODES) expect(text, `${hash}: ${text}`).not.toMatch(code);
      await other.close();
    }

    // A link with no game in it deals none by itself: it says so, and New game deals one.
    for (const hash of ['#replay=', '#game=&token=x']) {
      const other = await browser.newPage();
      const creations: string[] = [];
      other.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/games') creations.push(hash);
      });
      await other.goto(`${local.url}/${hash}`);
      await other.locator('.message.error', { hasText: 'There is no such game.' }).waitFor();
      expect(creations).toEqual([]);
      await other.getByRole('button', { name: 'New game' }).click();
      await other.waitForURL((url) => /^#game=[\w-]+&token=/.test(url.hash));
      expect(creations).toEqual([hash]);
      await other.close();
    }

    const texts = await said();
    expect(texts.length).toBeGreaterThan(8);
    for (const text of texts) for (const code of CODES) expect(text).not.toMatch(code);
  });

  it('keeps Settings across a reload, and deals with them', { timeout: 30_000 }, async () => {
    const { id, token } = await newGame(api, { seed: 5 });
    await open(id, token);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Draw').selectOption('1');
    await page.getByLabel('Passes through the deck').selectOption('unlimited');
    await page.getByLabel('Cards may come back from the foundations').uncheck();
    await page.getByLabel('Safe cards go home by themselves').uncheck();
    await page.getByLabel('Score shown').selectOption('vegas');
    await page.getByLabel('Reduced motion').check();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await page.locator('.status').getByText('Vegas').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByLabel('Draw').inputValue()).toBe('1');
    expect(await page.getByLabel('Passes through the deck').inputValue()).toBe('unlimited');
    expect(await page.getByLabel('Cards may come back from the foundations').isChecked()).toBe(false);
    expect(await page.getByLabel('Safe cards go home by themselves').isChecked()).toBe(false);
    expect(await page.getByLabel('Reduced motion').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();

    const before = page.url();
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByRole('button', { name: 'Deal' }).click();
    await page.waitForURL((url) => url.href !== before);
    await waitForVersion(page, 0);
    const params = new URLSearchParams(new URL(page.url()).hash.slice(1));
    const { body } = await api.get(`/games/${params.get('game')}`, {
      authorization: `Bearer ${params.get('token')}`,
    });
    expect(body.rules).toEqual({ draw: 1, passes: null, foundationToTableau: false });

    // A stored value that Settings does not offer is its default: 7 passes is 3.
    await page.evaluate(() => localStorage.setItem('klondike.settings', JSON.stringify({ passes: 7 })));
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByLabel('Passes through the deck').inputValue()).toBe('3');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('received no card that was face down in a game in play: not in the hints, autoplays or frames', async () => {
    expect(responses.length).toBeGreaterThan(50);
    expect(await hiddenCardsIn(responses)).toEqual([]);
  });
});
