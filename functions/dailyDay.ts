import { dayIsOver, dayOf, type GameState } from '../domain/index.js';
import { now } from './clock.js';
import { Problem } from './http/problem.js';

/** Today, the UTC day by the service's clock. */
export const today = (): string => dayOf(now());

/** Whether a game is on a daily deal whose day is not over: its deal and any line through it stay secret. */
export const dailySecret = (state: GameState): boolean =>
  state.deal.daily !== undefined && !dayIsOver(state.deal.daily, now());

/** 422 for the hint and the analysis of a daily game while its day lasts. */
export const dailyInProgress = (state: GameState) =>
  new Problem(
    'daily-in-progress',
    `This is the daily deal of ${state.deal.daily}: no hint or analysis until the day is over (00:00 UTC).`,
    { rule: 'daily-in-progress', currentVersion: state.version },
  );
