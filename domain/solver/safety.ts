import { type Card, isRed, rankOf, suitOf } from '../cards.js';

/**
 * Whether a card that may go to its foundation can never be needed in the tableau again, so that
 * playing it there now loses nothing, given the foundations' heights by suit. A card can only ever
 * be needed to hold cards of the other colour one rank lower, which in turn hold cards of its colour
 * two ranks lower, and so on. If all of those are on the foundations, nothing can need it. With cards
 * allowed back from the foundations that takes both other-colour suits at rank - 1 and the
 * same-colour suit at rank - 2; without, only the first (foundation cards never come back).
 * The solver plays such moves without search, and autoplay plays them for the player.
 */
export function neverNeeded(card: Card, heights: ArrayLike<number>, foundationToTableau: boolean): boolean {
  const rank = rankOf(card);
  if (rank <= 1) return true;
  const suit = suitOf(card);
  const red = isRed(card);
  if (heights[red ? 0 : 1]! < rank - 1 || heights[red ? 3 : 2]! < rank - 1) return false;
  return !foundationToTableau || heights[3 - suit]! >= rank - 2;
}

/**
 * Whether playing the waste's top card to its foundation now rather than later keeps every option:
 * taking a card out of the talon shifts which cards a later pass of draw-3 shows, so only with draw 1
 * or when no recycle is left (`passes` Infinity when unlimited).
 */
export const wasteIsFixed = (draw: number, pass: number, passes: number): boolean =>
  draw === 1 || pass >= passes;
