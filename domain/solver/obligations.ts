import { cardOf, isRed } from '../cards.js';
import { RANK, SUIT, TWIN } from './card-tables.js';
import {
  cardOfMove,
  FOUNDATION_TO_TABLEAU,
  kindOf,
  TABLEAU_TO_FOUNDATION,
  toOf,
  WASTE_TO_FOUNDATION,
} from './packed-moves.js';
import type { Position } from './position.js';

/**
 * Cards taken back from their foundations. Such a move is only worth it if a card is laid on that card
 * next, or the card under it on its foundation comes back too. So after it the search tries only those
 * follow-ups (`meetsObligation`), and makes it only when one of them could come next (`coverable`):
 * otherwise it leads nowhere but back. That loses no win: in a winning line, a card taken back from
 * its foundation can be taken back later, just before a card is laid on it or the card under it comes
 * back; if neither happens it was never needed off its foundation. The move cannot make a safe move
 * appear other than sending that same card home.
 */

/** What the move list knows about the tableau while it is being made. */
export interface Tops {
  /** The column each card is the top of, or -1. */
  readonly topAt: Int8Array;
  /** The column whose top card `card` may lie on, holder k (0 or 1, see `holderOf`), or -1. */
  holderColumn(card: number, k: number): number;
  /** Whether card x is face up in a column or the card of a talon stop: the next move can play it. */
  isPlayable(x: number): boolean;
}

/** Of two columns (or -1 for none), the one further left. */
export const leftmost = (b1: number, b2: number): number => (b1 < 0 || (b2 >= 0 && b2 < b1) ? b2 : b1);

/**
 * Whether move m meets the obligation of the card just taken back (`position.takenBack`), which lies
 * on column `takenBackColumn`: a card laid on it, or the card under it coming back.
 */
export function meetsObligation(position: Position, takenBackColumn: number, m: number): boolean {
  const kind = kindOf(m);
  if (kind !== TABLEAU_TO_FOUNDATION && kind !== WASTE_TO_FOUNDATION && toOf(m) === takenBackColumn)
    return true;
  return kind === FOUNDATION_TO_TABLEAU && SUIT[cardOfMove(m)] === SUIT[position.takenBack];
}

/**
 * Whether card x, taken back from its foundation onto column b, could be followed by what makes it
 * worth it: a card laid on it (one rank lower, of the other colour; not when x's twin is a top further
 * left, which takes it instead, see `MoveList.addOnto`), or the card under it coming back from its
 * foundation onto a top (one of the two cards of x's rank and the other colour), itself worth it. An
 * Ace never is.
 */
export function coverable(position: Position, tops: Tops, x: number, b: number): boolean {
  const rank = RANK[x]!;
  if (rank === 1) return false;
  const other = isRed(x) ? 0 : 1; // the first suit of the other colour; 3 - other is the second
  const rival = tops.topAt[TWIN[x]!]!;
  if (
    (rival < 0 || rival > b) &&
    (covers(position, tops, cardOf(rank - 1, other), b) ||
      covers(position, tops, cardOf(rank - 1, 3 - other), b))
  )
    return true;
  const to = leftmost(tops.holderColumn(x - 1, 0), tops.holderColumn(x - 1, 1));
  return to >= 0 && coverable(position, tops, x - 1, to);
}

/** Whether card k can be laid next on a card just taken back onto column b (see `coverable`). */
const covers = (position: Position, tops: Tops, k: number, b: number): boolean =>
  tops.isPlayable(k) || (position.isTopOfFoundation(k) && coverable(position, tops, k, b));
