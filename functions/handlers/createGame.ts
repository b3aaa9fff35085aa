import { randomUUID } from 'node:crypto';
import { fold, type Rules, toView, winnableSeed, withDefaults } from '../../domain/index.js';
import { dealOf, randomSeed } from '../deals.js';
import { hashToken, newToken } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { fingerprint, idempotencyKey } from '../http/preconditions.js';
import { Problem } from '../http/problem.js';
import { parseBody } from '../http/request.js';
import { gameJson } from '../http/respond.js';
import { CreateGame } from '../schemas.js';
import { deadline, SOLVER_MS } from '../solver.js';
import { type Creation, findCreation, recordCreation } from '../store/creations.js';
import { createGame } from '../store/events.js';

/** A deal the solver proved winnable under the game's rules, from a random seed on. */
function winnableDeal(body: { rules?: Partial<Rules> | undefined }) {
  const rules = withDefaults(body.rules as Partial<Rules>);
  const found = winnableSeed(randomSeed(), rules, { nodes: 200_000, ...deadline(SOLVER_MS.winnableDeal) });
  if (!found) {
    throw new Problem(
      'no-winnable-deal',
      'No deal was proved winnable within the time allowed. Retry.',
      {},
      { 'retry-after': '1' },
    );
  }
  return dealOf(body, found.seed);
}

/** POST /games: deal a new game. 201 with the view, the token (shown once) and Location. */
export const handler = httpHandler('createGame', async (request) => {
  const body = parseBody(request, CreateGame, {});
  if (body.winnable && (body.seed !== undefined || body.deck !== undefined)) {
    throw new Problem(
      'malformed-request',
      'winnable: true picks the deal itself: send no seed or deck with it.',
    );
  }
  const key = idempotencyKey(request);
  const fresh = (): Creation => {
    const token = newToken();
    return {
      gameId: randomUUID(),
      fingerprint: fingerprint('createGame', body),
      dealt: body.winnable ? winnableDeal(body) : dealOf(body),
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
