import { HOUSE_RULES, rankKey, wonOnItsDay } from '../../domain/index.js';
import { today } from '../dailyDay.js';
import { signedIn } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { json } from '../http/respond.js';
import {
  type AttemptRow,
  attemptRow,
  countsShowing,
  dayCounts,
  winnersBefore,
} from '../store/dailyModels.js';

/** A player's standing on a day: their game, and their rank once it is won. */
async function standing(row: AttemptRow) {
  const rank = wonOnItsDay(row.day, row)
    ? 1 + (await winnersBefore(row.day, rankKey({ ...row, finishedAt: row.finishedAt! })))
    : null;
  return {
    gameId: row.gameId,
    status: row.status,
    actions: row.actions,
    moves: row.moves,
    elapsedMs: row.elapsedMs,
    rank,
  };
}

/**
 * GET /daily (public): today's date and rules, the day's attempts so far and how many are won, and
 * with a sign-in token the player's own standing (`me`, null before they start). Read models,
 * eventually consistent with the log; nothing here tells the day's deal.
 */
export const handler = httpHandler('getDaily', async (request) => {
  const player = await signedIn(request);
  const day = today();
  const [counts, mine] = await Promise.all([
    dayCounts(day),
    player === undefined ? undefined : attemptRow(day, player),
  ]);
  const me = mine ? await standing(mine) : null;
  return json(200, {
    date: day,
    rules: HOUSE_RULES,
    ...countsShowing(counts, { players: me ? 1 : 0, won: me?.rank ?? 0 }),
    me,
  });
});
