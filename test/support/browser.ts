/**
 * A real browser for the web client's tests: Debian's Chromium driven by playwright-core (whose
 * own browser download cannot reach its host from these machines). Its headless shell
 * (chromium-headless-shell, what Playwright itself runs headless) first: the same engine without the
 * full browser's window machinery, it runs the browser tests on a tenth to a fifth less CPU (table.test
 * 15.7 s -> 12.2 s, browser.test 21.4 s -> 19.3 s). `.ci/run` installs it with apt when no Chromium
 * is there; where none is found the browser tests say so and are skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { View } from '../../client/types.js';
import type { RuntimeOptions } from '../../infra/local/runtime.js';
import { loadBuiltSite, type Site } from '../../infra/local/site.js';
import { type Local, startLocal } from './local.js';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
];

/** What a browser test or benchmark says when this machine has no Chromium: how to get one. */
export const NO_CHROMIUM = 'no Chromium (apt-get install -y chromium-headless-shell, or set CHROMIUM_PATH)';

/** The Chromium to drive, or undefined when this machine has none. */
export const CHROMIUM = CANDIDATES.find((path): path is string => !!path && existsSync(path));

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM!,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

/** The web client built from its sources as they are now, held in memory. */
export const buildTestSite = (): Promise<Site> => loadBuiltSite();

/**
 * The local runtime serving a fresh build of the web client, or `site` (one built before: a
 * runtime restarted on the same `dataDir` serves the same page).
 */
export async function startSite(
  options: Omit<RuntimeOptions, 'port' | 'site'> & { site?: Site } = {},
): Promise<Local> {
  return startLocal({ ...options, site: options.site ?? (await buildTestSite()) });
}

/** The piles the page shows: every `data-pile` and the `data-card` of each card in it, bottom first. */
export const shownPiles = (page: Page): Promise<Record<string, string[]>> =>
  page.$$eval('[data-pile]', (piles) =>
    Object.fromEntries(
      piles.map((pile) => [
        pile.getAttribute('data-pile')!,
        [...pile.querySelectorAll('[data-card]')].map((card) => card.getAttribute('data-card')!),
      ]),
    ),
  );

/**
 * What a view says each pile should show, bottom first: a face-down card as `down` while in play,
 * by its code once the game is over (the view then lists the stock's cards, and hiddenCards).
 */
export function expectedPiles(view: View): Record<string, string[]> {
  const down = (n: number) => Array.from({ length: n }, () => 'down');
  const piles: Record<string, string[]> = {
    stock: view.stock.cards ?? down(view.stock.count),
    waste: [...view.waste],
  };
  for (const [suit, cards] of Object.entries(view.foundations)) piles[`f${suit}`] = [...cards];
  view.tableau.forEach((column, i) => {
    piles[`t${i + 1}`] = [...(column.hiddenCards ?? down(column.hidden)), ...column.cards];
  });
  return piles;
}

/** Waits until the play view shows `version` (the test's own timeout is what fails a page that never does). */
export const waitForVersion = (page: Page, version: number) =>
  page.waitForSelector(`.status [data-version="${version}"]`, { timeout: 0 });

/** The cards a player of this view can see: the waste, the foundations and the face-up cards. */
export function visibleCards(view: View): Set<string> {
  return new Set([
    ...view.waste,
    ...Object.values(view.foundations).flat(),
    ...view.tableau.flatMap((column) => column.cards),
  ]);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/**
 * The serious and critical accessibility violations axe-core finds in the page as it is, each as
 * "where: rule (impact) targets". axe is evaluated through the DevTools protocol, which the page's
 * CSP (script-src 'self') does not govern, once a document (the views of the page keep it). The
 * passes' details are left out (resultTypes), which makes an audit about twice as quick; every rule
 * runs all the same, and every violation comes back whole.
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async () =>
      (await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }))
        .violations,
  );
  return violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n: any) => n.target).join(' ')}`);
}
