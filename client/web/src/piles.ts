/**
 * The table's piles and what a player can do with them, worked out from the view alone: the
 * legal targets of a picked-up run come from the view's `legalMoves`, never from rules of our own.
 */
import type { Foundation, Move, PlayedMove, Source, Suit, Tableau, View } from '../../types.js';
import { cardName } from './cards.js';

export type PileId = 'stock' | Source;

export const TABLEAU: readonly Tableau[] = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];
export const FOUNDATIONS: readonly Foundation[] = ['fC', 'fD', 'fH', 'fS'];
/** Reading order, as the arrow keys walk it: the top row left to right, then the columns. */
export const PILES: readonly PileId[] = ['stock', 'waste', ...FOUNDATIONS, ...TABLEAU];

/**
 * Cards picked up: `count` cards from the top of `from`, the lowest of them `card` as the table
 * showed it. An input waits its turn behind the requests before it (../game.ts), which may move the
 * cards: it applies to the cards the player chose, or to none.
 */
export interface Selection {
  readonly from: Source;
  readonly count: number;
  readonly card: string;
}

/** Whether the picked-up cards are still where they were picked up. */
export const stillThere = (view: View, selection: Selection): boolean =>
  faceUp(view, selection.from).at(-selection.count) === selection.card;

export const isTableau = (pile: PileId): pile is Tableau => pile[0] === 't';
export const isFoundation = (pile: PileId): pile is Foundation => pile[0] === 'f';
const foundationSuit = (pile: Foundation): Suit => pile[1] as Suit;
export const column = (view: View, pile: Tableau) => view.tableau[Number(pile[1]) - 1]!;

/** The face-up cards of a pile, bottom to top (the stock shows none). */
export function faceUp(view: View, pile: PileId): readonly string[] {
  if (pile === 'stock') return [];
  if (pile === 'waste') return view.waste;
  if (isFoundation(pile)) return view.foundations[foundationSuit(pile)];
  return column(view, pile).cards;
}

/** How many cards can be picked up from a pile at most: a column's face-up run, one elsewhere. */
export function maxCount(view: View, pile: PileId): number {
  if (pile === 'stock') return 0;
  const cards = faceUp(view, pile).length;
  return isTableau(pile) ? cards : Math.min(cards, 1);
}

/** The API's legal moves for these picked-up cards. */
export function movesOf(view: View, selection: Selection): PlayedMove[] {
  return view.legalMoves.filter(
    (move) => move.type === 'move' && move.from === selection.from && move.count === selection.count,
  );
}

/** Where the picked-up cards may go, per `legalMoves`. */
export function targetsOf(view: View, selection: Selection | null): ReadonlySet<PileId> {
  if (!selection) return new Set();
  return new Set(
    movesOf(view, selection).map((move) => (move.type === 'move' ? (move.to as PileId) : 'stock')),
  );
}

/** The move that puts the picked-up cards on a pile (the API says whether it is legal). */
export const moveTo = (selection: Selection, to: PileId): Move | null =>
  to === 'stock' || to === 'waste'
    ? null
    : { type: 'move', from: selection.from, to, count: selection.count };

/** What clicking the stock does: draw while it has cards, else turn the waste over. */
export const stockMove = (view: View): Move =>
  view.stock.count > 0 || view.waste.length === 0 ? { type: 'draw' } : { type: 'recycle' };

const PILE_NAMES: Record<PileId, string> = {
  stock: 'stock',
  waste: 'waste',
  fC: 'clubs foundation',
  fD: 'diamonds foundation',
  fH: 'hearts foundation',
  fS: 'spades foundation',
  t1: 'column 1',
  t2: 'column 2',
  t3: 'column 3',
  t4: 'column 4',
  t5: 'column 5',
  t6: 'column 6',
  t7: 'column 7',
};

/** The accessible name of a pile: what a sighted player sees on it. */
export function pileLabel(view: View, pile: PileId): string {
  const name = PILE_NAMES[pile];
  if (pile === 'stock') {
    if (view.stock.count > 0)
      return `Stock, ${view.stock.count} ${view.stock.count === 1 ? 'card' : 'cards'}`;
    if (view.waste.length === 0) return 'Stock, empty';
    return view.recyclesLeft === 0 ? 'Stock, empty: no pass is left' : 'Stock, empty: turn the waste over';
  }
  const cards = faceUp(view, pile);
  if (pile === 'waste' || isFoundation(pile)) {
    const top = cards.at(-1);
    return `${name[0]!.toUpperCase()}${name.slice(1)}, ${top ? `${cardName(top)} on top, ${cards.length} in all` : 'empty'}`;
  }
  const { hidden } = column(view, pile as Tableau);
  const parts = [hidden ? `${hidden} face down` : '', ...cards.map(cardName)].filter(Boolean);
  return `Column ${pile[1]}, ${parts.length ? parts.join(', ') : 'empty'}`;
}
