import { cardOf, isRed, KING } from '../cards.js';
import { HOLDER, RANK, SUIT, TWIN } from './card-tables.js';
import {
  FOUNDATION_TO_TABLEAU,
  kindOf,
  TABLEAU_TO_FOUNDATION,
  toOf,
  WASTE_TO_FOUNDATION,
} from './packed-moves.js';
import type { Position } from './position.js';

/**
 * Cards taken back from their foundations. Such a move is only worth it if a card is laid on that card
 * next, or another card comes back from a foundation next. So after it the search tries only those
 * follow-ups (`meetsObligation`), and makes it only when it could be worth it (`coverable`).
 *
 * That loses no win. In a winning line, move each card taken back from its foundation as late as it
 * can go: just before the first move that needs it out (a card laid on it, or the card under it on
 * its foundation coming back); if none does, it was never needed out. The line then takes cards back
 * in groups, each followed by a move of another kind that lays a card on the group's last card,
 * and every other card of a group is needed out by a later one of the same group (one comes back onto
 * it, or the card under it comes back). So the moves after a card taken back are another card taken
 * back or a card laid on it. Two cards taken back one after the other are needed: say 9S is home on
 * 8S and 9D on 8D, and 7C is to go onto 8D on 9S. 9D comes back (onto a ten), then 9S (onto a ten),
 * then 8D onto 9S, then 7C: 9D is not followed by a card on it, nor by 8D, which needs 9S out first.
 * The move cannot make a safe move appear other than sending that same card home.
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
 * on column `takenBackColumn`: a card laid on it, or another card taken back.
 */
export function meetsObligation(takenBackColumn: number, m: number): boolean {
  const kind = kindOf(m);
  if (kind === FOUNDATION_TO_TABLEAU) return true;
  return kind !== TABLEAU_TO_FOUNDATION && kind !== WASTE_TO_FOUNDATION && toOf(m) === takenBackColumn;
}

/**
 * Whether card x, taken back from its foundation onto column b, could be worth it: a card could be
 * laid on it (one rank lower, of the other colour; not when x's twin is a top further left, which
 * takes it instead, see `MoveList.addOnto`), one the next move can play or one on top of its
 * foundation and itself worth taking back onto x; or the card under it could come back, onto a top
 * (itself worth it) or onto a card that is home and could come back before it. An Ace never is.
 *
 * Of a group of cards taken back (see above), one that can come back next always passes this. Start
 * from the group's last card, which the move after the group lays a card on (a card that move can
 * play). While the card above it on its foundation is in the group, go to that card: the card under
 * it, worth it, comes back onto a top or onto a card home. Else, while the card it comes back onto
 * is in the group, go to that one: the top of a foundation, worth it, is laid on it. Ranks rise, so
 * this ends, at a card on top of its foundation whose column is a top: it can come back next.
 */
export function coverable(position: Position, tops: Tops, x: number, b: number): boolean {
  look++;
  return worth(position, tops, x, b);
}

function worth(position: Position, tops: Tops, x: number, b: number): boolean {
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
  if (rank === 2) return false;
  const under = x - 1;
  const to = leftmost(tops.holderColumn(under, 0), tops.holderColumn(under, 1));
  if (to >= 0 && worth(position, tops, under, to)) return true;
  return canReturn(position, tops, HOLDER[2 * under]!) || canReturn(position, tops, HOLDER[2 * under + 1]!);
}

/**
 * Whether card h is home and could come back from its foundation: the cards above it could first,
 * and it has a top to come back onto, or a card that could come back first (a King: taken to find an
 * empty column).
 */
function canReturn(position: Position, tops: Tops, h: number): boolean {
  if (!isHome(position, h)) return false;
  // Each card once a look: the same card is reached by many ways up the ranks.
  if (lookOf[h] === look) return returns[h] === 1;
  lookOf[h] = look;
  returns[h] = 0;
  const can =
    (position.isTopOfFoundation(h) || canReturn(position, tops, h + 1)) &&
    (RANK[h] === KING ||
      tops.holderColumn(h, 0) >= 0 ||
      tops.holderColumn(h, 1) >= 0 ||
      canReturn(position, tops, HOLDER[2 * h]!) ||
      canReturn(position, tops, HOLDER[2 * h + 1]!));
  returns[h] = can ? 1 : 0;
  return can;
}

/** `canReturn`'s answers in the current `coverable` look (`lookOf[h] === look`). */
let look = 0;
const lookOf = new Float64Array(52);
const returns = new Uint8Array(52);

/** Whether card k can be laid next on a card just taken back onto column b (see `coverable`). */
const covers = (position: Position, tops: Tops, k: number, b: number): boolean =>
  tops.isPlayable(k) || (position.isTopOfFoundation(k) && worth(position, tops, k, b));

/** Whether card k is on its foundation. */
const isHome = (position: Position, k: number): boolean => position.foundation[SUIT[k]!]! >= RANK[k]!;
