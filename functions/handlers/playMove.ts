import { handleCommand } from '../commands.js';
import { httpHandler } from '../http/handler.js';
import { parseBody, parseWith } from '../http/request.js';
import { GamePath, Move } from '../requestSchemas.js';

/** POST /games/{id}/moves: apply one move. */
export const handler = httpHandler('playMove', async (request) => {
  parseWith(GamePath, request.pathParameters, 'path');
  const move = parseBody(request, Move);
  return handleCommand(request, 'playMove', move, () => [move]);
});
