import { randomUUID } from 'node:crypto';
import { deal, HOUSE_RULES, parseDeck } from '../../domain/index.js';
import { nowIso } from '../clock.js';
import { dealOfDay } from '../daily.js';
import { today } from '../dailyDay.js';
import { createdAnswer, loadOrNotFound, viewOf } from '../games.js';
import { hashToken, newToken, player } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { fingerprint, idempotencyKey } from '../http/preconditions.js';
import { keyReused } from '../http/problem.js';
import { parseBody } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { EmptyBody } from '../requestSchemas.js';
import { type Creation, creationKey, findCreation, recordCreation } from '../store/creations.js';
import { type Attempt, attemptOf, claimAttempt, type DailyDeal } from '../store/daily.js';
import { createGame } from '../store/events.js';

const ROUTE = 'createDailyGame';

/** The deal event of a player's game on the day's deal. */
function dealtOn(ofDay: DailyDeal) {
  const deck = parseDeck(ofDay.deck);
  if (!Array.isArray(deck)) throw new Error(`the daily deal of ${ofDay.day} is not a deck`);
  return deal(deck, null, HOUSE_RULES, ofDay.day);
}

/**
 * The game of an attempt that stands, at its version now (200). Its deal is written first if the
 * request that claimed the attempt was cut off before it wrote it.
 */
async function answerAttempt(day: string, owner: string, attempt: Attempt) {
  await createGame(attempt.gameId, dealtOn(await dealOfDay(day)), { ...attempt, owner });
  const loaded = await loadOrNotFound(attempt.gameId);
  return gameJson(200, viewOf(loaded.state, attempt.gameId), loaded.state.version, {
    location: `/games/${attempt.gameId}`,
  });
}

/**
 * POST /daily/games (sign-in required): the player's game on today's deal. The first call of the
 * day deals it: 201 with the view, the game's token and Location, as POST /games. Every later call
 * that day answers the same game as it stands (200, without the token: the player's sign-in opens
 * it), never a second deal: the attempt is claimed by a conditional put before the game is written.
 * An Idempotency-Key gives the first answer again, token included.
 */
export const handler = httpHandler(ROUTE, async (request) => {
  const owner = await player(request);
  parseBody(request, EmptyBody, {});
  const name = idempotencyKey(request);
  const key = name === undefined ? undefined : creationKey(name, owner);
  const print = fingerprint(ROUTE, {});
  const found = key === undefined ? undefined : await findCreation(key);
  if (found) {
    if (found.fingerprint !== print) {
      throw keyReused();
    }
    // The first answer may have been a 503 that the deal never reached: it is written now.
    await createGame(found.gameId, found.dealt, found);
    return createdAnswer(found, true);
  }
  const day = today();
  const started = await attemptOf(day, owner);
  if (started) return answerAttempt(day, owner, started);
  const dealt = dealtOn(await dealOfDay(day));
  const token = newToken();
  const attempt: Attempt = { gameId: randomUUID(), tokenHash: hashToken(token), createdAt: nowIso() };
  const stands = await claimAttempt(day, owner, attempt);
  if (stands.gameId !== attempt.gameId) return answerAttempt(day, owner, stands);
  const creation: Creation = { ...attempt, fingerprint: print, dealt, token, owner };
  const keyed = key === undefined || (await recordCreation(key, creation));
  await createGame(attempt.gameId, dealt, creation);
  // A POST /games sent at once under the same key took it first (an SDK-retried put of this very
  // record reads as this game): the key is that game's. The day's game stands all the same; the
  // player's sign-in opens it, and the next call answers it.
  if (!keyed && (await findCreation(key!))?.gameId !== attempt.gameId) {
    throw keyReused();
  }
  return createdAnswer(creation, false);
});
