import { randomUUID } from 'node:crypto';
import { withDefaults } from '../../domain/index.js';
import { nowIso } from '../clock.js';
import { type DealRequest, dealOf, winnableDeck } from '../deals.js';
import { createdAnswer } from '../games.js';
import { creator, hashToken, newToken } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { fingerprint, idempotencyKey } from '../http/preconditions.js';
import { keyReused, Problem } from '../http/problem.js';
import { parseBody } from '../http/request.js';
import { CreateGame } from '../requestSchemas.js';
import { type Creation, creationKey, findCreation, recordCreation } from '../store/creations.js';
import { createGame } from '../store/events.js';

/**
 * The replay of an anonymous creation hands out the game's token, so its key is a secret: it must be
 * long enough that nobody guesses it (22 characters: a random UUID has 36, 128 random bits in
 * base64url have 22).
 */
export const MIN_CREATION_KEY_LENGTH = 22;

/** A deal the solver proved winnable under the game's rules. */
const winnable = (body: DealRequest) => dealOf(body, winnableDeck(withDefaults(body.rules)));

function newCreation(
  body: DealRequest & { winnable?: boolean | undefined },
  print: string,
  owner: string | undefined,
): Creation {
  const token = newToken();
  return {
    gameId: randomUUID(),
    fingerprint: print,
    dealt: body.winnable ? winnable(body) : dealOf(body),
    token,
    tokenHash: hashToken(token),
    ...(owner === undefined ? {} : { owner }),
    createdAt: nowIso(),
  };
}

/**
 * POST /games: deal a new game. 201 with the view, the token (shown once) and Location. With a
 * sign-in token (a JWT), the game belongs to that player too.
 */
export const handler = httpHandler('createGame', async (request) => {
  const body = parseBody(request, CreateGame, {});
  if (body.winnable && (body.seed !== undefined || body.deck !== undefined)) {
    throw new Problem(
      'malformed-request',
      'winnable: true picks the deal itself: send no seed or deck with it.',
    );
  }
  const owner = await creator(request);
  const name = idempotencyKey(request);
  if (name !== undefined && owner === undefined && name.length < MIN_CREATION_KEY_LENGTH) {
    throw new Problem(
      'malformed-request',
      `An Idempotency-Key on POST /games must have at least ${MIN_CREATION_KEY_LENGTH} characters: its retry returns the game's token, so it is a secret. Send a random UUID.`,
    );
  }
  const key = name === undefined ? undefined : creationKey(name, owner);
  // The request as it is read: rules left out are the house rules, and `winnable` false.
  const print = fingerprint('createGame', {
    ...body,
    rules: withDefaults(body.rules),
    winnable: body.winnable === true,
  });
  // A retry finds its first answer before anything is dealt or solved.
  let creation = key === undefined ? undefined : await findCreation(key);
  let replayed = creation !== undefined;
  if (!creation) {
    const fresh = newCreation(body, print, owner);
    creation = fresh;
    if (key !== undefined && !(await recordCreation(key, fresh))) {
      // A racing twin claimed the key first: its game is the answer (unless the record is this
      // very one, written by an attempt the SDK retried).
      creation = await findCreation(key);
      if (!creation) throw new Error('an Idempotency-Key record vanished');
      replayed = creation.gameId !== fresh.gameId;
    }
  }
  if (creation.fingerprint !== print) {
    throw keyReused();
  }
  // On a retry the deal may already be written; the conditional put then changes nothing.
  const created = await createGame(creation.gameId, creation.dealt, creation);
  if (!created && !replayed) throw new Error('a new game id was already taken');
  return createdAnswer(creation, replayed);
});
