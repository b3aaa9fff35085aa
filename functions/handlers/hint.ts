import { HINT_BUDGET, hint, tooLong } from '../../domain/index.js';
import { dailyInProgress, dailySecret } from '../dailyDay.js';
import { readGame } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { gameJson } from '../http/respond.js';
import { deadline, outOfTime, SOLVER_MS } from '../solver.js';

/**
 * GET /games/{id}/hint: `{ move, reason }`, a good next move computed only from what the player can
 * see (the hint never reads a face-down card or the stock's order), or `move: null` and why. The
 * hint's work is counted in solver nodes (HINT_BUDGET), so the same view gets the same hint; the
 * deadline is only a guard against a slow machine, and a hint it cuts short is 503 `busy`, not
 * another hint. A daily game has none while its day lasts.
 */
export const handler = httpHandler('hint', async (request) => {
  const { loaded } = await readGame(request);
  const { state } = loaded;
  if (dailySecret(state)) throw dailyInProgress(state);
  const refused = tooLong(state);
  if (state.status !== 'playing')
    return gameJson(200, { move: null, reason: `The game is ${state.status}.` }, state.version);
  if (refused) return gameJson(200, { move: null, reason: refused.detail }, state.version);
  const clock = deadline(SOLVER_MS.hint);
  const answer = hint(state, { ...HINT_BUDGET, ...clock });
  if (clock.passed()) throw outOfTime('The hint', SOLVER_MS.hint);
  return gameJson(200, answer, state.version);
});
