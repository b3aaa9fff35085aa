import { hint } from '../../domain/index.js';
import { readGame } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { gameJson } from '../http/respond.js';

/**
 * GET /games/{id}/hint: `{ move, reason }`, a good next move computed only from what the player can
 * see (the hint never reads a face-down card or the stock's order), or `move: null` and why.
 */
export const handler = httpHandler('hint', async (request) => {
  const { loaded } = await readGame(request);
  const { state } = loaded;
  const answer =
    state.status === 'playing' ? hint(state) : { move: null, reason: `The game is ${state.status}.` };
  return gameJson(200, answer, state.version);
});
