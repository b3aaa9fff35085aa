import { publicEvent } from '../../domain/index.js';
import { eventJson, readGame } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { parseWith } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { EventsQuery } from '../requestSchemas.js';
import { readEvents } from '../store/events.js';

/** GET /games/{id}/events?after=V&limit=N: the log in order, a page at a time; `next` is the `after` of the next page. */
export const handler = httpHandler('listEvents', async (request) => {
  const { after, limit } = parseWith(EventsQuery, request.query, 'query');
  const { id, loaded, reveal } = await readGame(request);
  const latest = loaded.state.version;
  const last = Math.min(after + limit, latest);
  const events = last > after ? await readEvents(id, after + 1, last) : [];
  return gameJson(
    200,
    {
      events: events.map((stored) => eventJson(stored, publicEvent(stored.event, reveal))),
      next: last < latest ? last : null,
    },
    latest,
  );
});
