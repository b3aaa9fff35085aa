import { player } from '../http/auth.js';
import { cursorOf, fromCursor } from '../http/cursor.js';
import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';
import { parseWith } from '../http/request.js';
import { json } from '../http/respond.js';
import { MyGamesQuery } from '../requestSchemas.js';
import { pageOfGames } from '../store/readModels.js';

/** A row's key, as `next` gives it: `game#<createdAt>#<id>` (see `readModels.ts`). */
const ROW_KEY = /^game#\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[\w-]+$/;
function decode(cursor: string): string {
  const key = fromCursor(cursor);
  if (key === undefined || !ROW_KEY.test(key)) {
    throw new Problem('malformed-request', 'cursor must be the `next` of a previous page of /me/games.');
  }
  return key;
}

/**
 * GET /me/games?status=&limit=&cursor=: the signed-in player's games, newest first, a page at a time;
 * `next` is the `cursor` of the next page, or null. A read model, eventually consistent with the log.
 */
export const handler = httpHandler('myGames', async (request) => {
  const signedIn = await player(request);
  const { status, limit, cursor } = parseWith(MyGamesQuery, request.query, 'query');
  const page = await pageOfGames(signedIn, {
    status,
    limit,
    ...(cursor === undefined ? {} : { after: decode(cursor) }),
  });
  return json(200, { games: page.games, next: page.last === undefined ? null : cursorOf(page.last) });
});
