import { autocomplete } from '../../domain/index.js';
import { runPlan } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';
import { parseBody, parseWith } from '../http/request.js';
import { EmptyBody, GamePath } from '../schemas.js';
import { deadline, refuseFinished, SOLVER_MS } from '../solver.js';

/**
 * POST /games/{id}/autocomplete: when the finish can be proved from what the player knows (no card
 * face down, the stock's order seen), plays the game to the end as ordinary events; 422 otherwise.
 */
export const handler = httpHandler('autocomplete', async (request) => {
  parseWith(GamePath, request.pathParameters, 'path');
  const body = parseBody(request, EmptyBody, {});
  return runPlan(
    request,
    'autocomplete',
    body,
    (state) =>
      refuseFinished(state) ??
      autocomplete(state, deadline(SOLVER_MS.autocomplete)) ??
      new Problem(
        'not-winnable',
        'The win cannot be proved from what you can see: turn up every face-down card and deal the stock through once first.',
        { currentVersion: state.version },
      ),
  );
});
