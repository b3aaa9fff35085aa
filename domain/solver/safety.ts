import { type Card, isRed } from '../cards.js';
import { COLUMNS } from '../piles.js';
import { RANK, SUIT } from './card-tables.js';
import { packMove, TABLEAU_TO_FOUNDATION, WASTE_TO_FOUNDATION } from './packed-moves.js';
import { COLUMN_ROOM, type Position } from './position.js';

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
  const rank = RANK[card]!;
  if (rank <= 1) return true;
  const suit = SUIT[card]!;
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

/**
 * A safe move to the foundations, if any (else -1): the only move worth trying in its position. Only
 * a card never needed again (`neverNeeded`) is one.
 *
 * A card that could come straight back (a top card lying on a face-up card, a King alone in its
 * column) is not safe for that when cards may come back from the foundations: the search brings a
 * card back only when a card can be laid on it next (`obligations.ts`), so sending such a card home
 * alone can lose a win (a deal with a known winning line tests it).
 */
export function safeMove(position: Position): number {
  const { cards, length, faceDown, foundation, foundationToTableau } = position;
  for (let a = 0; a < COLUMNS; a++) {
    const l = length[a]!;
    if (l <= faceDown[a]!) continue;
    const card = cards[a * COLUMN_ROOM + l - 1]!;
    if (position.canGoHome(card) && neverNeeded(card, foundation, foundationToTableau)) {
      return packMove(TABLEAU_TO_FOUNDATION, a, 0, 1, 0, 0, card);
    }
  }
  const { wasteSize } = position;
  if (wasteSize > 0 && wasteIsFixed(position.draw, position.pass, position.passes)) {
    const card = position.talon[wasteSize - 1]!;
    if (position.canGoHome(card) && neverNeeded(card, foundation, foundationToTableau)) {
      return packMove(WASTE_TO_FOUNDATION, 0, 0, 1, wasteSize, 0, card);
    }
  }
  return -1;
}
