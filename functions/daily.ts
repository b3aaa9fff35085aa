import { formatCard, HOUSE_RULES, nextDay, winnableDeal } from '../domain/index.js';
import { nowIso } from './clock.js';
import { today } from './dailyDay.js';
import { randomDeck } from './deals.js';
import { Problem } from './http/problem.js';
import { deadline, SOLVER_MS, WINNABLE_NODES_PER_DEAL } from './solver.js';
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
  const found = winnableDeal(randomDeck, HOUSE_RULES, {
    perDeal: WINNABLE_NODES_PER_DEAL,
    ...deadline(SOLVER_MS.winnableDeal),
  });
  if (!found) {
    throw new Problem(
      'no-winnable-deal',
      "The day's deal is not ready yet: no deal was proved winnable in time. Retry.",
      {},
      { 'retry-after': '1' },
    );
  }
  return keepDailyDeal(day, found.deck.map(formatCard), nowIso());
}

/** The day a schedule prepares: tomorrow's (today's too, should nothing have prepared it). */
export async function prepareDeals(): Promise<{ readonly prepared: readonly string[] }> {
  const day = today();
  for (const each of [day, nextDay(day)]) await dealOfDay(each);
  return { prepared: [day, nextDay(day)] };
}
