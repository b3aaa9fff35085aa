import { playerStats } from '../../domain/index.js';
import { player } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { json } from '../http/respond.js';
import { statsOf } from '../store/readModels.js';

/**
 * GET /me/stats: the signed-in player's statistics, one read however many games they have. A
 * read model, eventually consistent with the log; before the first game, the figures of no games.
 */
export const handler = httpHandler('myStats', async (request) => {
  const signedIn = await player(request);
  return json(200, (await statsOf(signedIn)) ?? playerStats([]));
});
