/**
 * The web client's goals, measured in Chromium against the local runtime (`npm run bench:web`):
 *  - page weight: the JavaScript and CSS the browser loaded for play and for a replay, gzip
 *    (goal <= 100 KB together);
 *  - first table: from navigation start to the first frame in which the seven columns are drawn,
 *    for a first visit (which deals a game) and for a game resumed by its link (goal <= 1 s);
 *  - a move's round trip: from the click on the stock to the first animation frame after the
 *    table shows the new version, over 200 clicks (goal p95 <= 50 ms).
 * It also takes the README's screenshots (client/web/screenshot*.png). Nothing here is asserted
 * by the tests: the numbers go to the README.
 *
 *   npm run bench:web [-- --runs 10 --moves 200 --no-screenshots]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../infra/bundling.js';
import { CHROMIUM, launchBrowser, startSite } from '../test/support/browser.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    moves: { type: 'string', default: '200' },
    'no-screenshots': { type: 'boolean', default: false },
  },
});
if (!CHROMIUM) {
  console.error('no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)');
  process.exit(1);
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * p) - 1)]!;
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
  await page.getByText('Watch the replay').click();
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
    `page weight (JS + CSS, play and replay): ${(raw / 1024).toFixed(1)} KB, gzip ${(gzip / 1024).toFixed(1)} KB (goal <= 100 KB)`,
  );
  await context.close();

  // First table: a first visit (it deals a game: one POST) and a resume by link (one GET).
  const runs = Number(values.runs);
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
      `first table, ${name}: median ${ms(percentile(times, 0.5))}, max ${ms(Math.max(...times))} over ${runs} fresh browser contexts (goal <= 1 s)`,
    );
  }

  // A move's round trip: clicks on the stock (draw, and recycle when it is empty), unlimited passes.
  const moves = Number(values.moves);
  const play = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await play.goto(`${local.url}/`);
  await play.waitForSelector('[data-pile="t7"] [data-card]');
  await dealUnlimited(play);
  const roundTrips: number[] = [];
  /** The same, to the DOM change alone (the table redrawn, before the frame that paints it). */
  const domUpdates: number[] = [];
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
        requestAnimationFrame(() => { window.__roundTrip = performance.now() - window.__clickAt; });
      }).observe(document.body, { childList: true, subtree: true, attributes: true });
    })()`);
    await play.click('[data-pile="stock"]');
    await play.waitForFunction(() => (globalThis as any).__roundTrip !== undefined);
    roundTrips.push((await play.evaluate('window.__roundTrip')) as number);
    domUpdates.push((await play.evaluate('window.__domAt')) as number);
  }
  results.push(
    `move round trip (click on the stock to the redrawn table), ${moves} moves: p50 ${ms(percentile(roundTrips, 0.5))}, p95 ${ms(percentile(roundTrips, 0.95))}, max ${ms(Math.max(...roundTrips))} (goal p95 <= 50 ms)`,
    `  of which to the DOM change: p50 ${ms(percentile(domUpdates, 0.5))}, p95 ${ms(percentile(domUpdates, 0.95))}`,
  );
  await play.close();

  if (!values['no-screenshots']) await screenshots();
} finally {
  await browser.close();
  await local.stop();
}
console.log(results.join('\n'));

/** Deals seed 42 with unlimited passes through the page's own dialog. */
async function dealUnlimited(page: Page) {
  await page.getByRole('button', { name: 'New game' }).click();
  await page.getByLabel('By seed').check();
  await page.locator('input[name=seed]').fill('42');
  await page.locator('input[name=passes]').fill('unlimited');
  const before = page.url();
  await page.getByRole('button', { name: 'Deal' }).click();
  await page.waitForURL((url) => url.href !== before);
  await page.waitForSelector('.status [data-version="0"]');
}

/**
 * The README's pictures: a game under way on a desktop (a run picked up, its targets lit) and on
 * a phone, signed in at the development issuer; and that player's games and statistics.
 */
async function screenshots() {
  for (const [name, viewport] of [
    ['screenshot.png', { width: 1000, height: 720 }],
    ['screenshot-phone.png', { width: 390, height: 720 }],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: name.includes('phone') ? 2 : 1 });
    await page.goto(`${local.url}/`);
    await page.waitForSelector('[data-pile="t7"] [data-card]');
    await page.getByLabel('Player name').fill('alice');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-player]').waitFor();
    await page.getByRole('button', { name: 'New game' }).click();
    await page.getByLabel('By seed').check();
    await page.locator('input[name=seed]').fill('3');
    const before = page.url();
    await page.getByRole('button', { name: 'Deal' }).click();
    await page.waitForURL((url) => url.href !== before);
    for (let i = 0; i < 4; i++) await page.click('[data-pile="stock"]');
    await page.waitForSelector('.status [data-version="4"]');
    await page.getByRole('button', { name: 'Hint' }).click();
    await page.locator('.message').getByText(/^Hint/).waitFor();
    await page.screenshot({ path: join(PROJECT_ROOT, 'client', 'web', name) });
    if (!name.includes('phone')) {
      // A second game, resigned, then alice's list once the read models have it (about 2 s).
      page.on('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Resign' }).click();
      await page.getByText('Watch the replay').waitFor();
      await page.getByRole('link', { name: 'My games' }).click();
      for (let tries = 0; (await page.locator('tr[data-game]').count()) < 2 && tries < 40; tries++) {
        await page.waitForTimeout(250);
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForSelector('main.me[aria-busy="false"]');
      }
      await page.screenshot({ path: join(PROJECT_ROOT, 'client', 'web', 'screenshot-my-games.png') });
    }
    await page.close();
  }
}
