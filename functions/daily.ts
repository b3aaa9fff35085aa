import { formatCard, HOUSE_RULES, nextDay } from '../domain/index.js';
import { nowIso } from './clock.js';
import { today } from './dailyDay.js';
import { winnableDeck } from './deals.js';
import { type DailyDeal, dailyDeal, keepDailyDeal } from './store/daily.js';

/**
 * The day's deal: the one kept, or else a deal the service draws (a cryptographic permutation),
 * proved winnable under the house rules by the solver, and kept by a conditional put, so that every
 * request of the day agrees on it. The schedule prepares tomorrow's ahead of time; a day nobody
 * prepared gets its deal from its first request.
 */
export async function dealOfDay(day: string): Promise<DailyDeal> {
  const kept = await dailyDeal(day);
  if (kept) return kept;
  return keepDailyDeal(day, winnableDeck(HOUSE_RULES).map(formatCard), nowIso());
}

/** The day a schedule prepares: tomorrow's (today's too, should nothing have prepared it). */
export async function prepareDeals(): Promise<{ readonly prepared: readonly string[] }> {
  const day = today();
  for (const each of [day, nextDay(day)]) await dealOfDay(each);
  return { prepared: [day, nextDay(day)] };
}
