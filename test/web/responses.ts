/**
 * The service's promise that no face-down card leaves the service while a game is in play,
 * checked on everything the browser actually received, and on the page's HTML.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { View } from '../../client/types.js';
import { RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS } from '../../client/web/src/cards.js';
import { visibleCards } from '../support/browser.js';

export interface Recorded {
  readonly path: string;
  readonly body: Promise<string>;
}

/**
 * Keeps every response about a game (a player's game on the daily deal too), or a player's games,
 * that a browser context receives, in order.
 */
export function recordResponses(context: BrowserContext, into: Recorded[]): void {
  context.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/games') || path.startsWith('/me/') || path === '/daily/games')
      into.push({ path, body: response.text().catch(() => '') });
  });
}

/**
 * What a player's read models show of games in play beyond what a player may see: a list's row
 * of a game in play has no deck, no seed and no card at all; the statistics name no card.
 */
function leaksOfPlayer(path: string, body: any): string[] {
  const leaks: string[] = [];
  const rows: any[] = path === '/me/games' ? (body?.games ?? []) : [];
  for (const row of rows) {
    if (row.status !== 'playing') continue;
    for (const key of ['deck', 'seed', 'stock', 'tableau', 'waste'])
      if (key in row) leaks.push(`${path}: game ${row.id} in play has ${key}`);
    for (const card of cardsIn(row)) leaks.push(`${path}: game ${row.id} in play names ${card}`);
  }
  if (path === '/me/stats') for (const card of cardsIn(body)) leaks.push(`${path}: names ${card}`);
  return leaks;
}

const CARD = /^[A2-9TJQK][CDHS]$/;
const CARD_IN_TEXT = /(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])/g;
// The page's own words for cards: a hidden card spelled out as the page would spell it is caught too.
const RANK_WORDS = RANK_NAMES;
const SUIT_WORDS: Record<string, string> = SUIT_NAMES;
export const ALL_CARDS = Object.keys(SUIT_WORDS).flatMap((suit) =>
  Object.keys(RANK_WORDS).map((r) => r + suit),
);

/** Every card code in a JSON value: whole strings that are codes, and codes inside text (not the token). */
function cardsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (CARD.test(value)) found.add(value);
    else for (const match of value.matchAll(CARD_IN_TEXT)) found.add(match[0]);
  } else if (Array.isArray(value)) {
    for (const item of value) cardsIn(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (key !== 'token') cardsIn(item, found);
  }
  return found;
}

const isView = (body: any): body is View => !!body && Array.isArray(body.tableau);

/** What in one view of a game in play shows more than a player may see. */
function leaksOfView(view: View, where: string): string[] {
  const leaks: string[] = [];
  for (const key of ['deck', 'seed'] as const) if (key in view) leaks.push(`${where}: has ${key}`);
  if (view.stock.cards) leaks.push(`${where}: has stock.cards`);
  if (view.tableau.some((column) => column.hiddenCards)) leaks.push(`${where}: has hiddenCards`);
  const visible = visibleCards(view);
  for (const card of cardsIn(view)) if (!visible.has(card)) leaks.push(`${where}: ${card} is face down`);
  return leaks;
}

/**
 * Goes through the responses in order, per game: a view in play may hold only its own face-up
 * cards; any other answer (a hint, a refusal, replay frames) only the cards face up in the last
 * view of that game. Answers about a game once it is over may show everything.
 */
export async function hiddenCardsIn(records: readonly Recorded[]): Promise<string[]> {
  const visibleNow = new Map<string, Set<string>>();
  const over = new Set<string>();
  const leaks: string[] = [];
  for (const record of records) {
    let body: any;
    try {
      body = JSON.parse(await record.body);
    } catch {
      continue;
    }
    if (record.path.startsWith('/me/')) {
      leaks.push(...leaksOfPlayer(record.path, body));
      continue;
    }
    const game = record.path.startsWith('/games/') ? record.path.split('/')[2] : body?.id;
    if (!game || over.has(game)) continue;
    const where = `${record.path} (game ${game})`;
    if (isView(body)) {
      if (body.status !== 'playing') {
        over.add(game);
        continue;
      }
      leaks.push(...leaksOfView(body, where));
      visibleNow.set(game, visibleCards(body));
      continue;
    }
    for (const frame of body?.frames ?? [])
      if (frame.view.status === 'playing') leaks.push(...leaksOfView(frame.view, where));
    const visible = visibleNow.get(game) ?? new Set();
    for (const card of cardsIn({ ...body, frames: undefined })) {
      if (!visible.has(card)) leaks.push(`${where}: ${card} is face down`);
    }
  }
  return leaks;
}

/** The face-down cards of `view` that the page's HTML names: by code, in words, or as "10♥". */
export async function hiddenCardsInPage(page: Page, view: View): Promise<string[]> {
  const html = await page.content();
  const lower = html.toLowerCase();
  const visible = visibleCards(view);
  const codes = new Set(html.match(CARD_IN_TEXT) ?? []);
  return ALL_CARDS.filter((card) => !visible.has(card)).filter((card) => {
    const rank = card[0]!;
    const words = `${RANK_WORDS[rank]} of ${SUIT_WORDS[card[1]!]}`;
    const short = `${rank === 'T' ? '10' : rank}${(SUIT_SYMBOLS as Record<string, string>)[card[1]!]}`;
    return codes.has(card) || lower.includes(words) || html.includes(short);
  });
}
