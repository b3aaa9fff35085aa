/**
 * The web client's goals, measured in Chromium against the local runtime (`npm run bench:web`):
 *  - page weight: the JavaScript and CSS the browser loaded for play and for a replay, gzip
 *    (goal <= 60 KB together);
 *  - first table: from navigation start to the first frame in which the seven columns are drawn,
 *    for a first visit (which deals a game) and for a game resumed by its link (goal <= 1 s);
 *  - a move's round trip: from the click on the stock to the first animation frame after the
 *    table shows the new version (its slide has started), over 200 clicks (goal p95 <= 50 ms).
 * It also takes the README's screenshots (client/web/screenshot*.png). Nothing here is asserted
 * by the tests: the numbers go to docs/operations.md and the README.
 *
 *   npm run bench:web [-- --runs 10 --moves 200 --no-screenshots | --only-screenshots]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { dayOf } from '../domain/index.js';
import { CLOCK_OFFSET_ENV } from '../functions/clock.js';
import { PROJECT_ROOT } from '../infra/bundling.js';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import fixtures from '../test/fixtures/winning-lines.json' with { type: 'json' };
import { percentileOf } from './stats.js';

// The handlers' request logs would drown the figures; their logger reads this once, when loaded.
process.env.LOG_LEVEL ??= 'SILENT';
const { CHROMIUM, NO_CHROMIUM, buildTestSite, launchBrowser, startSite } = await import(
  '../test/support/browser.js'
);
const { keepDailyDeal } = await import('../functions/store/daily.js');
const { client } = await import('../test/support/local.js');

const USAGE = 'npm run bench:web -- [--runs X] [--moves X] [--no-screenshots | --only-screenshots]';
const { values } = parseScriptArgs(
  {
    options: {
      runs: { type: 'string', default: '10' },
      moves: { type: 'string', default: '200' },
      'no-screenshots': { type: 'boolean', default: false },
      'only-screenshots': { type: 'boolean', default: false },
    },
  },
  USAGE,
);
const runs = wholeNumber('runs', values.runs, 1, 1_000, USAGE);
const moves = wholeNumber('moves', values.moves, 1, 10_000, USAGE);
if (values['no-screenshots'] && values['only-screenshots']) {
  console.error(`--no-screenshots and --only-screenshots leave nothing to do: give one\nusage: ${USAGE}`);
  process.exit(2);
}
if (!CHROMIUM) {
  console.error(NO_CHROMIUM);
  process.exit(1);
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Records, in the page, when the seven columns first hold cards (at the next animation frame). */
const FIRST_TABLE = `
  new MutationObserver((_, observer) => {
    if (!document.querySelector('[data-pile="t7"] [data-card]')) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__firstTable = performance.now(); });
  }).observe(document, { childList: true, subtree: true });
`;

const local = await startSite();
const browser = await launchBrowser();
const results: string[] = [];
try {
  if (!values['only-screenshots']) await measure();
  if (!values['no-screenshots']) await screenshots();
} finally {
  await local.stop();
}
try {
  // The Daily view needs runtimes of its own (a --data folder across a day boundary): after the other.
  if (!values['no-screenshots']) await dailyScreenshot(browser);
} finally {
  await browser.close();
}
console.log(results.join('\n'));

async function measure() {
  // Page weight: every script and style sheet the browser fetched, for play and then a replay.
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const loaded = new Map<string, Buffer>();
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet') loaded.set(response.url(), await response.body());
  });
  await page.goto(`${local.url}/`);
  await page.waitForSelector('[data-pile="t7"] [data-card]');
  const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('game')!;
  const token = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token')!;
  page.on('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.getByRole('link', { name: 'Watch the replay' }).click();
  await page.waitForSelector('output[data-version]');
  await page.waitForLoadState('networkidle');
  let raw = 0;
  let gzip = 0;
  for (const [url, body] of loaded) {
    raw += body.length;
    gzip += gzipSync(body).length;
    results.push(
      `  ${new URL(url).pathname}: ${(body.length / 1024).toFixed(1)} KB, gzip ${(gzipSync(body).length / 1024).toFixed(1)} KB`,
    );
  }
  results.unshift(
    `page weight (JS + CSS, play and replay): ${(raw / 1024).toFixed(1)} KB, gzip ${(gzip / 1024).toFixed(1)} KB (goal <= 60 KB)`,
  );
  await context.close();

  // First table: a first visit (it deals a game: one POST) and a resume by link (one GET).
  for (const [name, path] of [
    ['first visit (deals a game)', '/'],
    ['resume by link', `/#game=${id}&token=${token}`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const fresh = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      await fresh.addInitScript(FIRST_TABLE);
      const p = await fresh.newPage();
      await p.goto(local.url + path);
      await p.waitForFunction(() => (globalThis as any).__firstTable !== undefined);
      times.push((await p.evaluate('window.__firstTable')) as number);
      await fresh.close();
    }
    results.push(
      `first table, ${name}: median ${ms(percentileOf(times, 0.5))}, max ${ms(Math.max(...times))} over ${runs} fresh browser contexts (goal <= 1 s)`,
    );
  }

  // A move's round trip: clicks on the stock (draw, and recycle when it is empty), unlimited passes,
  // and no safe cards home by themselves (each click is one move, one version).
  const play = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await play.goto(`${local.url}/`);
  await play.waitForSelector('[data-pile="t7"] [data-card]');
  await dealUnlimited(play);
  const roundTrips: number[] = [];
  /** The same, to the DOM change alone (the table redrawn, before the frame that paints it). */
  const domUpdates: number[] = [];
  /** The page's own part: from the move's answer arriving (its resource timing) to the DOM change. */
  const pageParts: number[] = [];
  /** The request itself (sent to answered), and the page's work from the click to sending it. */
  const requests: number[] = [];
  const toRequests: number[] = [];
  for (let i = 0; i < moves; i++) {
    const version = Number(await play.getAttribute('.status [data-version]', 'data-version'));
    await play.evaluate(`(() => {
      window.__roundTrip = undefined;
      document.querySelector('[data-pile="stock"]').addEventListener('click', () => {
        window.__clickAt = performance.now();
      }, { capture: true, once: true });
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.status [data-version="${version + 1}"]')) return;
        observer.disconnect();
        window.__domAt = performance.now() - window.__clickAt;
        const answer = performance.getEntriesByType('resource').filter((e) => e.name.includes('/moves')).at(-1);
        window.__pagePart = answer ? performance.now() - answer.responseEnd : NaN;
        window.__request = answer ? answer.responseEnd - answer.startTime : NaN;
        window.__toRequest = answer ? answer.startTime - window.__clickAt : NaN;
        performance.clearResourceTimings();
        requestAnimationFrame(() => { window.__roundTrip = performance.now() - window.__clickAt; });
      }).observe(document.body, { childList: true, subtree: true, attributes: true });
    })()`);
    await play.click('[data-pile="stock"]');
    await play.waitForFunction(() => (globalThis as any).__roundTrip !== undefined);
    roundTrips.push((await play.evaluate('window.__roundTrip')) as number);
    domUpdates.push((await play.evaluate('window.__domAt')) as number);
    pageParts.push((await play.evaluate('window.__pagePart')) as number);
    requests.push((await play.evaluate('window.__request')) as number);
    toRequests.push((await play.evaluate('window.__toRequest')) as number);
  }
  results.push(
    `move round trip (click on the stock to the redrawn table), ${moves} moves: p50 ${ms(percentileOf(roundTrips, 0.5))}, p95 ${ms(percentileOf(roundTrips, 0.95))}, max ${ms(Math.max(...roundTrips))} (goal p95 <= 50 ms)`,
    `  of which to the DOM change: p50 ${ms(percentileOf(domUpdates, 0.5))}, p95 ${ms(percentileOf(domUpdates, 0.95))}`,
    `  of which the page's own work, from the answer to the DOM change: p50 ${ms(percentileOf(pageParts, 0.5))}, p95 ${ms(percentileOf(pageParts, 0.95))}`,
    `  of which the request, sent to answered: p50 ${ms(percentileOf(requests, 0.5))}, p95 ${ms(percentileOf(requests, 0.95))}; from the click to sending it: p50 ${ms(percentileOf(toRequests, 0.5))}, p95 ${ms(percentileOf(toRequests, 0.95))}`,
  );
  await play.close();
}

/** Deals seed 42 with unlimited passes and no autoplay, through the page's own Settings and dialog. */
async function dealUnlimited(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Passes through the deck').selectOption('unlimited');
  await page.getByLabel('Safe cards go home by themselves').uncheck();
  await page.getByRole('button', { name: 'Done' }).click();
  await dealSeed(page, 42);
}

async function dealSeed(page: Page, seed: number) {
  await page.getByRole('button', { name: 'New game' }).click();
  await page.getByLabel('By seed').check();
  await page.locator('input[name=seed]').fill(String(seed));
  const before = page.url();
  await page.getByRole('button', { name: 'Deal' }).click();
  await page.waitForURL((url) => url.href !== before);
  await page.waitForSelector('.status [data-version="0"]');
}

/**
 * Waits until the page shows version `least` or later, and then for the safe cards that autoplay
 * sends home after a draw (the setting, on by default) to be shown too.
 */
async function reached(page: Page, least: number) {
  await page.waitForFunction(
    (n) => Number(document.querySelector('.status [data-version]')?.getAttribute('data-version')) >= n,
    least,
  );
  await page.waitForTimeout(500);
}

function shot(page: Page, name: string) {
  return page.screenshot({ path: join(PROJECT_ROOT, 'client', 'web', name) });
}

/**
 * The README's pictures: a game under way on a desktop and on a phone (signed in at the
 * development issuer, a hint on the table); a finished game with its analysis; and the player's
 * games and statistics.
 */
async function screenshots() {
  for (const [name, viewport] of [
    ['screenshot.png', { width: 1280, height: 800 }],
    ['screenshot-phone.png', { width: 390, height: 844 }],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: name.includes('phone') ? 2 : 1 });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${local.url}/`);
    await page.waitForSelector('[data-pile="t7"] [data-card]');
    await page.getByLabel('Player name').fill('alice');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-player]').waitFor();
    await dealSeed(page, 3);
    for (let i = 0; i < 4; i++) await page.click('[data-pile="stock"]');
    await reached(page, 4);
    await page.getByRole('button', { name: 'Hint' }).click();
    await page
      .locator('.message')
      .getByText(/^(Put|Draw|Turn|Take)/)
      .waitFor();
    await page.waitForTimeout(400); // the last slide ends
    await shot(page, name);
    if (!name.includes('phone')) {
      // The same deal dealt through three times without a card played, then resigned: the whole
      // deal shown, and its analysis, which says until which step it could still have been won.
      await dealSeed(page, 3);
      for (let i = 0; i < 26; i++) await page.click('[data-pile="stock"]');
      await page.locator('[data-pile="stock"] .spent').waitFor();
      await page.getByRole('button', { name: 'Resign' }).click();
      await page.locator('[data-analysis][data-verdict]').waitFor({ timeout: 10_000 });
      await page.waitForTimeout(700); // the banner's pop ends
      await shot(page, 'screenshot-finished.png');
      // Then alice's list, once the read models have the game (about 2 s).
      await page.getByRole('link', { name: 'My games' }).click();
      for (let tries = 0; (await page.locator('tr[data-game]').count()) < 1 && tries < 40; tries++) {
        await page.waitForTimeout(250);
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForSelector('main.me[aria-busy="false"]');
      }
      await shot(page, 'screenshot-my-games.png');
    }
    await page.close();
  }
}

/**
 * The Daily view with a finished day's leaderboard: yesterday (the runtime's clock a day back, on a
 * --data folder) a few players chose names and won its deal along a line of the fixtures, with more
 * or fewer undone moves, one resigned; then, on the same folder at today's clock, alice, who won
 * yesterday, has today's deal under way and opens yesterday's board, every entry a replay away.
 */
async function dailyScreenshot(browser: Browser) {
  const DAY_S = 86_400;
  const [yesterdays, todays] = fixtures.lines;
  const dataDir = mkdtempSync(join(tmpdir(), 'klondike-bench-daily-'));
  const site = await buildTestSite();
  const yesterday = dayOf(Date.now() - DAY_S * 1000);
  try {
    process.env[CLOCK_OFFSET_ENV] = String(-DAY_S);
    let runtime = await startSite({ site, dataDir });
    await keepDailyDeal(yesterday, yesterdays!.deck, new Date(Date.now() - DAY_S * 1000).toISOString());
    const api = client(runtime.url);
    // Who played, the name they chose, and the undo-redo pairs they spent (null: resigned).
    const players: [string, string, number | null][] = [
      ['alice', 'Alice', 1],
      ['zoe', "Zoë O'Brien", 0],
      ['dima', 'Дмитрий', 2],
      ['omega', 'Ωμέγα', 0],
      ['jl', 'Jean-Luc', 5],
      ['ana', 'Ana María', null],
      ['sam', 'sam_the_cardsharp', 3],
    ];
    for (const [sub, name, pairs] of players) {
      const auth = { authorization: `Bearer ${await runtime.issuer!.tokenFor(sub)}` };
      await api.call('PUT', '/me/profile', { body: { name }, headers: auth });
      const game = (await api.post('/daily/games', undefined, auth)).body.id as string;
      const line = pairs === null ? yesterdays!.moves.slice(0, 20) : yesterdays!.moves;
      for (const [i, move] of line.entries()) {
        await api.post(`/games/${game}/moves`, move, auth);
        for (let undo = 0; i === 10 && pairs !== null && undo < pairs; undo++) {
          await api.post(`/games/${game}/undo`, undefined, auth);
          await api.post(`/games/${game}/redo`, undefined, auth);
        }
      }
      if (pairs === null) await api.post(`/games/${game}/resign`, undefined, auth);
    }
    await runtime.settled();
    await runtime.stop();
    delete process.env[CLOCK_OFFSET_ENV];
    runtime = await startSite({ site, dataDir });
    try {
      await keepDailyDeal(dayOf(Date.now()), todays!.deck, new Date().toISOString());
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${runtime.url}/#daily`);
      await page.getByLabel('Player name').fill('alice');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: "Play today's deal" }).click();
      await page.waitForSelector('.status [data-version="0"]');
      for (let i = 0; i < 3; i++) await page.click('[data-pile="stock"]');
      await reached(page, 3);
      await runtime.settled();
      await page.getByRole('link', { name: 'Daily deal' }).click();
      await page.getByRole('button', { name: "Resume today's deal" }).waitFor();
      await page.getByRole('link', { name: 'Previous day' }).click();
      await page.locator('[data-board][aria-busy="false"] .board tr[data-game]').first().waitFor();
      await page.screenshot({
        path: join(PROJECT_ROOT, 'client', 'web', 'screenshot-daily.png'),
        fullPage: true,
      });
      await page.close();
    } finally {
      await runtime.stop();
    }
  } finally {
    delete process.env[CLOCK_OFFSET_ENV];
    rmSync(dataDir, { recursive: true, force: true });
  }
}
