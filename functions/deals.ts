import { randomInt } from 'node:crypto';
import {
  type Card,
  deal,
  deckFromSeed,
  type GameEvent,
  isDeckError,
  parseDealString,
  parseDeck,
  type Rules,
  withDefaults,
} from '../domain/index.js';
import { Problem } from './http/problem.js';

export interface DealRequest {
  readonly seed?: number | undefined;
  readonly deck?: readonly string[] | string | undefined;
  readonly rules?: Partial<Rules> | undefined;
}

/** A seed from a cryptographic source, for games created with neither seed nor deck. */
export const randomSeed = (): number => randomInt(0, 2 ** 32);

/** The deal event of a request: its deck, its seed, or a fresh random seed; 400 for a bad deck. */
export function dealOf(request: DealRequest, seed: number | undefined = request.seed): GameEvent {
  const rules = withDefaults(request.rules as Partial<Rules>);
  if (request.deck !== undefined) {
    const deck = typeof request.deck === 'string' ? parseDealString(request.deck) : parseDeck(request.deck);
    if (isDeckError(deck)) throw new Problem('malformed-request', `The deck is not a deal: ${deck.problem}.`);
    return deal(deck as Card[], null, rules);
  }
  const chosen = seed ?? randomSeed();
  return deal(deckFromSeed(chosen), chosen, rules);
}
