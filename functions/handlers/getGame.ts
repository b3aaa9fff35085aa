import { toView } from '../../domain/index.js';
import { loadOrNotFound, readGame, versionNotReached } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { parseWith } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { ViewQuery } from '../requestSchemas.js';

/**
 * GET /games/{id}: the view now, or `?at=N` as it was at version N. Either way the ETag is the
 * game's version (its last event's), as on every answer about the game: a client that writes with
 * it as If-Match writes on the game as it is, not as it was.
 */
export const handler = httpHandler('getGame', async (request) => {
  const { at } = parseWith(ViewQuery, request.query, 'query');
  const { id, loaded, reveal } = await readGame(request);
  const latest = loaded.state.version;
  if (at === undefined || at === latest) return gameJson(200, toView(loaded.state, id, reveal), latest);
  if (at > latest) throw versionNotReached(latest, at);
  const past = await loadOrNotFound(id, at);
  return gameJson(200, toView(past.state, id, reveal), latest);
});
