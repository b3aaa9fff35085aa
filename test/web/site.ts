/**
 * One local runtime serving a fresh build of the web client, one Chromium and one browser context
 * for a test file (the machine has two cores): started before its tests, stopped after them. Every
 * response about a game the context receives is recorded, for the face-down card check. With
 * `dataDir`, the store is kept in a temporary folder, and `restart` starts the runtime again on it
 * with its clock moved (KLONDIKE_CLOCK_OFFSET_S), serving the same build: the day boundary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CLOCK_OFFSET_ENV } from '../../functions/clock.js';
import type { Site as Build } from '../../infra/local/site.js';
import { buildTestSite, launchBrowser, startSite } from '../support/browser.js';
import { type Client, client, type Local } from '../support/local.js';
import { type Recorded, recordResponses } from './responses.js';

export interface Site {
  local: Local;
  api: Client;
  browser: Browser;
  context: BrowserContext;
  /** The context's page; dialogs (Resign's confirmation) are accepted. */
  page: Page;
  readonly responses: Recorded[];
  /** With `dataDir`: the runtime stopped, then started on the same folder with its clock `offsetS` seconds on (a new URL). */
  restart(offsetS: number): Promise<void>;
}

export function useSite(options: {
  viewport: { width: number; height: number };
  init?: string[];
  dataDir?: boolean;
  /** The page under prefers-reduced-motion: no slide for Playwright's clicks to wait out. */
  reducedMotion?: boolean;
}): Site {
  let build: Build;
  let dataDir: string | undefined;
  let moved = false;
  const site = {
    responses: [] as Recorded[],
    async restart(offsetS: number) {
      if (!dataDir) throw new Error('restart needs useSite({ dataDir: true })');
      await site.local.stop();
      process.env[CLOCK_OFFSET_ENV] = String(offsetS);
      moved = true;
      site.local = await startSite({ site: build, dataDir });
      site.api = client(site.local.url);
    },
  } as Site;
  beforeAll(async () => {
    build = await buildTestSite();
    if (options.dataDir) dataDir = mkdtempSync(join(tmpdir(), 'klondike-web-data-'));
    site.local = await startSite({ site: build, dataDir });
    site.api = client(site.local.url);
    site.browser = await launchBrowser();
    site.context = await site.browser.newContext({
      viewport: options.viewport,
      ...(options.reducedMotion ? { reducedMotion: 'reduce' as const } : {}),
    });
    // Playwright waits for ever by default: a step that never comes fails on its own, naming what
    // it waited for, well before the test's timeout (a busy machine's slowest steps take seconds).
    site.context.setDefaultTimeout(60_000);
    for (const script of options.init ?? []) await site.context.addInitScript(script);
    recordResponses(site.context, site.responses);
    site.page = await site.context.newPage();
    site.page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.local?.stop();
    if (moved) delete process.env[CLOCK_OFFSET_ENV];
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return site;
}
