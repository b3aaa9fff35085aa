import { type Card, orderedDeck } from './cards.js';

/** Largest seed: seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffff_ffff;

export const isSeed = (value: number): boolean => Number.isInteger(value) && value >= 0 && value <= MAX_SEED;

/**
 * Mulberry32, a 32-bit generator with one word of state. Every step is 32-bit unsigned arithmetic
 * (`Math.imul` is multiplication modulo 2^32), so any language with uint32 reproduces it exactly.
 * docs/rules.md, "Numbered deals: the shuffle, exactly", gives the same algorithm in words.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1) >>> 0;
    z = (z ^ (z + Math.imul(z ^ (z >>> 7), z | 61))) >>> 0;
    return (z ^ (z >>> 14)) >>> 0;
  };
}

/** A uniform integer in [0, bound) by rejection, so no residue is favoured. */
function below(next: () => number, bound: number): number {
  const limit = 2 ** 32 - (2 ** 32 % bound);
  for (;;) {
    const r = next();
    if (r < limit) return r % bound;
  }
}

/**
 * The numbered deal of `seed`: start from the ordered deck (C A..K, D A..K, H A..K, S A..K) and run
 * Fisher-Yates from the last position down: for i = 51..1, swap position i with a uniform j in [0, i].
 * The result is in dealing order (docs/rules.md): deck[0] is the first card dealt.
 */
export function deckFromSeed(seed: number): Card[] {
  const next = mulberry32(seed);
  const deck = orderedDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = below(next, i + 1);
    const swap = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = swap;
  }
  return deck;
}
