import { publicEvent } from '../../domain/index.js';
import { authorizeRead, loadOrNotFound } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { parseWith } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { EventsQuery, GamePath } from '../schemas.js';
import { eventJson, readEvents } from '../store/events.js';

/** GET /games/{id}/events?after=V&limit=N: the log in order, a page at a time; `next` is the `after` of the next page. */
export const handler = httpHandler('listEvents', async (request) => {
  const { id } = parseWith(GamePath, request.pathParameters, 'path');
  const { after = -1, limit = 100 } = parseWith(EventsQuery, request.query, 'query');
  const current = await loadOrNotFound(id);
  authorizeRead(request, current);
  const reveal = current.state.status !== 'playing';
  const last = Math.min(after + limit, current.state.version);
  const events = last > after ? await readEvents(id, after + 1, last) : [];
  return gameJson(
    200,
    {
      events: events.map((stored) => eventJson(stored, publicEvent(stored.event, reveal))),
      next: last < current.state.version ? last : null,
    },
    current.state.version,
  );
});
