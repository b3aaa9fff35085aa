import { randomInt } from 'node:crypto';
import {
  type Card,
  deal,
  deckFromSeed,
  type GameEvent,
  isDeckError,
  orderedDeck,
  parseDealString,
  parseDeck,
  type Rules,
  winnableDeal,
  withDefaults,
} from '../domain/index.js';
import { Problem } from './http/problem.js';
import { deadline, outOfTime, SOLVER_MS, WINNABLE_NODES_PER_DEAL } from './solver.js';

export interface DealRequest {
  readonly seed?: number | undefined;
  readonly deck?: readonly string[] | string | undefined;
  readonly rules?: Partial<Rules> | undefined;
}

/**
 * A deal the service chooses: a uniform permutation drawn card by card from the operating system's
 * cryptographic source (Fisher-Yates with `crypto.randomInt`: log2(52!) = 225.6 bits). Never a
 * 32-bit seed: with the shuffle published, the seven face-up cards would single out the seed among
 * 2^32 in minutes, and with it every face-down card.
 */
export function randomDeck(): Card[] {
  const deck = orderedDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    const swap = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = swap;
  }
  return deck;
}

/**
 * The deal event of a request: its deck, its numbered deal, or one the service draws (with
 * `seed: null`, like a deal given as cards); 400 for a bad deck.
 */
export function dealOf(request: DealRequest, drawn?: readonly Card[]): GameEvent {
  const rules = withDefaults(request.rules);
  if (request.deck !== undefined) {
    const deck = typeof request.deck === 'string' ? parseDealString(request.deck) : parseDeck(request.deck);
    if (isDeckError(deck)) throw new Problem('malformed-request', `The deck is not a deal: ${deck.problem}.`);
    return deal(deck, null, rules);
  }
  if (request.seed !== undefined) return deal(deckFromSeed(request.seed), request.seed, rules);
  return deal(drawn ?? randomDeck(), null, rules);
}

/**
 * A deal the service draws (as `randomDeck`) that the solver proved winnable under `rules`, drawn
 * afresh until one is proved; 503 `busy` when the solver's time runs out first.
 */
export function winnableDeck(rules: Rules): readonly Card[] {
  const found = winnableDeal(randomDeck, rules, {
    perDeal: WINNABLE_NODES_PER_DEAL,
    ...deadline(SOLVER_MS.winnableDeal),
  });
  // Deals are drawn until the deadline: none found is time run out.
  if (!found) throw outOfTime('The search for a winnable deal', SOLVER_MS.winnableDeal);
  return found.deck;
}
