import { safeAutoplay } from '../../domain/index.js';
import { runPlan } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { parseBody, parseWith } from '../http/request.js';
import { EmptyBody, GamePath } from '../schemas.js';
import { refuseFinished } from '../solver.js';

/**
 * POST /games/{id}/autoplay: appends, as ordinary events, every move to the foundations that can
 * never cost the game. 200 with the view (unchanged when there is none).
 */
export const handler = httpHandler('autoplay', async (request) => {
  parseWith(GamePath, request.pathParameters, 'path');
  const body = parseBody(request, EmptyBody, {});
  return runPlan(request, 'autoplay', body, (state) => refuseFinished(state) ?? safeAutoplay(state));
});
