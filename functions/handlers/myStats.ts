import { dailyFigures, playerStats } from '../../domain/index.js';
import { today } from '../dailyDay.js';
import { player } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { json } from '../http/respond.js';
import { statsOf } from '../store/readModels.js';

/**
 * GET /me/stats: the signed-in player's statistics, one read however many games they have. A
 * read model, eventually consistent with the log; before the first game, the figures of no games.
 * The daily streak that is current depends on the day it is read, so it is worked out here.
 */
export const handler = httpHandler('myStats', async (request) => {
  const signedIn = await player(request);
  const none = playerStats([]);
  const { daily = none.daily, ...stats } = (await statsOf(signedIn)) ?? none;
  return json(200, { ...stats, daily: dailyFigures(daily, today()) });
});
