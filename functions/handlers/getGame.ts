import { toView } from '../../domain/index.js';
import { authorizeRead, loadOrNotFound, versionNotReached } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { parseWith } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { GamePath, ViewQuery } from '../schemas.js';

/** GET /games/{id}: the view now, or `?at=N` as it was at version N. */
export const handler = httpHandler('getGame', async (request) => {
  const { id } = parseWith(GamePath, request.pathParameters, 'path');
  const { at } = parseWith(ViewQuery, request.query, 'query');
  const current = await loadOrNotFound(id);
  authorizeRead(request, current);
  const reveal = current.state.status !== 'playing';
  if (at === undefined || at === current.state.version) {
    return gameJson(200, toView(current.state, id), current.state.version);
  }
  if (at > current.state.version) throw versionNotReached(current.state.version, at);
  const past = await loadOrNotFound(id, at);
  return gameJson(200, toView(past.state, id, reveal), at);
});
