import { goesOn, holderOf, KING, rankOf, suitOf, twinOf } from '../cards.js';

/**
 * The card rules of `cards.ts`, looked up instead of worked out: the search asks them millions of
 * times a second. Each table is built from the domain's own function, so the rule stays in one place.
 */
const table = (f: (card: number) => number): Int8Array =>
  Int8Array.from({ length: 52 }, (_, card) => f(card));

/** `rankOf` (1..13), by card. */
export const RANK = table(rankOf);
/** `suitOf` (0..3), by card. */
export const SUIT = table(suitOf);
/** The height of its foundation at which a card goes on it (`goesOn`), by card. */
export const HOME_AT = table((card) => {
  let height = 0;
  while (!goesOn(card, height)) height++;
  return height;
});
/** `twinOf`, by card. */
export const TWIN = table(twinOf);
/** `holderOf(card, k)` at `2 * card + k`; -1 for a King, which lies on no card. */
export const HOLDER = Int8Array.from({ length: 104 }, (_, i) =>
  rankOf(i >> 1) === KING ? -1 : holderOf(i >> 1, i & 1),
);
