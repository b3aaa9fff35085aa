import { HINT_BUDGET, hint, tooLong } from '../../domain/index.js';
import { dailyInProgress, dailySecret } from '../dailyDay.js';
import { readGame } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { gameJson } from '../http/respond.js';
import { deadline, SOLVER_MS } from '../solver.js';

/**
 * GET /games/{id}/hint: `{ move, reason }`, a good next move computed only from what the player can
 * see (the hint never reads a face-down card or the stock's order), or `move: null` and why. The
 * hint's work is counted in solver nodes (HINT_BUDGET), so the same view gets the same hint; the
 * deadline is only a guard against a slow machine. A daily game has none while its day lasts.
 */
export const handler = httpHandler('hint', async (request) => {
  const { loaded } = await readGame(request);
  const { state } = loaded;
  if (dailySecret(state)) throw dailyInProgress(state);
  const refused = tooLong(state);
  const answer =
    state.status !== 'playing'
      ? { move: null, reason: `The game is ${state.status}.` }
      : refused
        ? { move: null, reason: refused.detail }
        : hint(state, { ...HINT_BUDGET, ...deadline(SOLVER_MS.hint) });
  return gameJson(200, answer, state.version);
});
