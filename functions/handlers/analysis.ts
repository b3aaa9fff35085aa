import { ANALYSIS_BUDGET, analyse } from '../../domain/index.js';
import { dailyInProgress, dailySecret } from '../dailyDay.js';
import { readGame } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';
import { gameJson } from '../http/respond.js';
import { deadline, SOLVER_MS } from '../solver.js';
import { readEvents } from '../store/events.js';

/**
 * GET /games/{id}/analysis: for a won or resigned game, with every card known, whether the deal was
 * winnable, a winning line from the deal, and the last version that could still be won
 * (docs/api.md); `unknown` where the solver ran out of time. Public once the game is over, like its
 * other reads; 422 while it is in play, since it would show the face-down cards, and for a daily
 * game while its day lasts.
 */
export const handler = httpHandler('analysis', async (request) => {
  // The clock starts with the request's arrival (`sinceArrival`), not after the reads: the answer
  // comes within 3 s however long the store took or the request waited (docs/api.md).
  const clock = deadline(SOLVER_MS.analysis);
  const { id, loaded, reveal } = await readGame(request);
  const { state } = loaded;
  if (dailySecret(state)) throw dailyInProgress(state);
  if (!reveal) {
    throw new Problem('game-in-play', 'The game is still in play: it can be analysed once won or resigned.', {
      currentVersion: state.version,
    });
  }
  const events = await readEvents(id, 0, state.version);
  const analysis = analyse(
    events.map((stored) => stored.event),
    { ...ANALYSIS_BUDGET, ...clock },
  );
  return gameJson(200, analysis, state.version);
});
