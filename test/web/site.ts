/**
 * One local runtime serving a fresh build of the web client, one Chromium and one browser context
 * for a test file (the machine has two cores): started before its tests, stopped after them. Every
 * response about a game the context receives is recorded, for the face-down card check.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, startSite } from '../support/browser.js';
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
}

export function useSite(options: { viewport: { width: number; height: number }; init?: string[] }): Site {
  const site = { responses: [] as Recorded[] } as Site;
  beforeAll(async () => {
    site.local = await startSite();
    site.api = client(site.local.url);
    site.browser = await launchBrowser();
    site.context = await site.browser.newContext({ viewport: options.viewport });
    for (const script of options.init ?? []) await site.context.addInitScript(script);
    recordResponses(site.context, site.responses);
    site.page = await site.context.newPage();
    site.page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.local?.stop();
  });
  return site;
}
