import { evolve, publicEvent, toView } from '../../domain/index.js';
import { eventJson, loadOrNotFound, readGame, versionNotReached } from '../games.js';
import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';
import { parseWith } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { ReplayQuery } from '../requestSchemas.js';
import { readEvents } from '../store/events.js';

/** Frames per response; a longer range is paged with `next`. */
export const MAX_FRAMES = 200;

/** GET /games/{id}/replay?from=A&to=B: the event and the view after it, for each version in A..B. */
export const handler = httpHandler('replay', async (request) => {
  const query = parseWith(ReplayQuery, request.query, 'query');
  const { id, loaded, reveal } = await readGame(request);
  const latest = loaded.state.version;
  const { from } = query;
  // A range the wrong way round is a mistake whatever the game's version (even past it).
  if (query.to !== undefined && from > query.to) {
    throw new Problem(
      'malformed-request',
      `from (${from}) must not be after to (${query.to}); the game is at version ${latest}.`,
      { currentVersion: latest },
    );
  }
  if (from > latest) throw versionNotReached(latest, from);
  const to = Math.min(query.to ?? latest, latest);
  const last = Math.min(to, from + MAX_FRAMES - 1);
  // Start from the state at `from` (a bounded read through its snapshot), then fold forward.
  const start = await loadOrNotFound(id, from);
  const events = await readEvents(id, from, last);
  let state = start.state;
  const frames = events.map((stored) => {
    if (stored.version > from) state = evolve(state, stored.event);
    return {
      version: stored.version,
      event: eventJson(stored, publicEvent(stored.event, reveal)),
      view: toView(state, id, reveal),
    };
  });
  return gameJson(200, { frames, next: last < to ? last + 1 : null }, latest);
});
