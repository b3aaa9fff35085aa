import { checkHistory, toView } from '../../domain/index.js';
import { dealOf } from '../deals.js';
import { illegal } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { idempotencyKey } from '../http/preconditions.js';
import { parseBody } from '../http/request.js';
import { json } from '../http/respond.js';
import { ReplayRequest } from '../requestSchemas.js';

/**
 * POST /replays: plays a history from its deal, as a live game would, and stores nothing.
 * 200 `{ won, view }` with the deal revealed, or 422 naming the index of the first illegal move.
 * An Idempotency-Key is checked like on any POST (400 if malformed) and needs no memory: the same
 * body always gets the same answer.
 */
export const handler = httpHandler('checkReplay', async (request) => {
  idempotencyKey(request);
  const body = parseBody(request, ReplayRequest);
  const result = checkHistory(dealOf(body), body.moves);
  if (!result.ok) {
    throw illegal(result.violation, { index: result.index, move: body.moves[result.index] });
  }
  return json(200, { won: result.state.status === 'won', view: toView(result.state, 'replay', true) });
});
