import { handleCommand } from '../commands.js';
import { gameIdOf } from '../games.js';
import { requireBearer } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { parseBody } from '../http/request.js';
import { Move } from '../requestSchemas.js';

/** POST /games/{id}/moves: apply one move. */
export const handler = httpHandler('playMove', async (request) => {
  gameIdOf(request);
  requireBearer(request);
  const move = parseBody(request, Move);
  // Its key's fingerprint reads `count` as the move does: 1 when left out.
  const read = move.type === 'move' ? { ...move, count: move.count ?? 1 } : move;
  return handleCommand(request, 'playMove', read, () => [move]);
});
