import { randomUUID } from 'node:crypto';
import { fold, toView } from '../../domain/index.js';
import { dealOf } from '../deals.js';
import { hashToken, newToken } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { fingerprint, idempotencyKey } from '../http/preconditions.js';
import { Problem } from '../http/problem.js';
import { parseBody } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { CreateGame } from '../schemas.js';
import { type Creation, findCreation, recordCreation } from '../store/creations.js';
import { createGame } from '../store/events.js';

/** POST /games: deal a new game. 201 with the view, the token (shown once) and Location. */
export const handler = httpHandler('createGame', async (request) => {
  const body = parseBody(request, CreateGame, {});
  if (body.winnable) {
    throw new Problem(
      'malformed-request',
      'winnable deals need the solver, which this deployment does not have yet.',
    );
  }
  const key = idempotencyKey(request);
  const fresh = (): Creation => {
    const token = newToken();
    return {
      gameId: randomUUID(),
      fingerprint: fingerprint('createGame', body),
      dealt: dealOf(body),
      token,
      tokenHash: hashToken(token),
      at: new Date().toISOString(),
    };
  };
  let creation = fresh();
  if (key !== undefined) {
    // Claim the key first: a retry (or a racing twin) finds the same game and the same token.
    const recorded = (await recordCreation(key, creation)) ? creation : await findCreation(key);
    if (!recorded) throw new Error('an Idempotency-Key record vanished');
    if (recorded.fingerprint !== creation.fingerprint) {
      throw new Problem(
        'idempotency-key-reused',
        `Idempotency-Key ${JSON.stringify(key)} was used for another request.`,
      );
    }
    creation = recorded;
  }
  // On a retry the deal may already be written; the conditional put then changes nothing.
  const created = await createGame(creation.gameId, creation.dealt, creation.tokenHash, creation.at);
  if (!created && key === undefined) throw new Error('a new game id was already taken');
  const view = toView(fold([creation.dealt]), creation.gameId);
  return gameJson(201, { ...view, token: creation.token }, 0, { location: `/games/${creation.gameId}` });
});
