/**
 * The solver's moves, packed in one integer each so that a search of millions of positions allocates
 * nothing per move. Stock and waste moves are macro-moves: "draw k times (recycling at most once on
 * the way), then play the waste's top card" is one move, so the search never spends a level on a
 * bare draw. Any game can be rearranged into tableau moves and such macro-moves, so nothing is lost.
 */

export const TABLEAU_TO_FOUNDATION = 0;
export const TABLEAU_TO_TABLEAU = 1;
export const WASTE_TO_FOUNDATION = 2;
export const WASTE_TO_TABLEAU = 3;
export const FOUNDATION_TO_TABLEAU = 4;
/**
 * A run moved off face-up P onto P's twin (bare), then P home: with twins alike in the position's key
 * (see `key.ts`), the run's move alone changes nothing, and this is what it was for.
 */
export const TWIN_THEN_FOUNDATION = 5;

// Bits: kind (3), from column or suit (3), to column (3), count (5), talon position 1..52 of the card
// played (6), recycle on the way (1), the (bottom) card moved (6).
export const packMove = (
  kind: number,
  from: number,
  to: number,
  count: number,
  talonAt: number,
  recycle: number,
  card: number,
): number => kind | (from << 3) | (to << 6) | (count << 9) | (talonAt << 14) | (recycle << 20) | (card << 21);

export const kindOf = (m: number): number => m & 7;
/** The column (or, from a foundation, the suit) the move takes its cards from. */
export const fromOf = (m: number): number => (m >> 3) & 7;
/** The column the cards go to (unused for moves to a foundation). */
export const toOf = (m: number): number => (m >> 6) & 7;
/** How many cards move between columns. */
export const countOf = (m: number): number => (m >> 9) & 31;
/** For a talon move: the position 1.. in the talon of the card the draws bring to the waste's top. */
export const talonAtOf = (m: number): number => (m >> 14) & 63;
/** For a talon move: 1 if it recycles the waste on the way. */
export const recycleOf = (m: number): number => (m >> 20) & 1;
/** The card moved: the bottom card of a run, the waste's top, or P for TWIN_THEN_FOUNDATION. */
export const cardOfMove = (m: number): number => (m >> 21) & 63;
