import { type Card, DECK_SIZE, formatCard, isRed, KING, rankOf, suitOf } from './cards.js';
import type { Move, PlayedMove } from './moves.js';
import {
  COLUMNS,
  columnIndex,
  type DestinationName,
  foundationPile,
  foundationSuit,
  isColumn,
  isFoundation,
  PILE_NAMES,
  pileIndex,
  pileName,
  WASTE,
} from './piles.js';
import type { Rules } from './rules.js';
import { type Violation, violation } from './violations.js';

/** One tableau column: face-down cards under a face-up run, both bottom to top. */
export interface Column {
  readonly hidden: readonly Card[];
  readonly up: readonly Card[];
}

/** Where every card is. Piles list bottom to top; the stock's top (next card drawn) is its last element. */
export interface Board {
  readonly stock: readonly Card[];
  readonly waste: readonly Card[];
  /** Indexed by suit: C, D, H, S. */
  readonly foundations: readonly (readonly Card[])[];
  readonly tableau: readonly Column[];
  /** The pass through the deck now under way, from 1. */
  readonly pass: number;
}

/**
 * Lays out a deck in physical dealing order (CONTRACT section 2): row r deals one card to each of the
 * columns r..7, face up on column r and face down on the others; the 24 cards left are the stock with
 * deck[28] on top.
 */
export function layOut(deck: readonly Card[]): Board {
  const hidden: Card[][] = Array.from({ length: COLUMNS }, () => []);
  const up: Card[][] = Array.from({ length: COLUMNS }, () => []);
  let next = 0;
  for (let row = 0; row < COLUMNS; row++) {
    for (let column = row; column < COLUMNS; column++) {
      const card = deck[next++]!;
      (column === row ? up : hidden)[column]!.push(card);
    }
  }
  return {
    stock: deck.slice(next, DECK_SIZE).reverse(),
    waste: [],
    foundations: [[], [], [], []],
    tableau: hidden.map((cards, i) => ({ hidden: cards, up: up[i]! })),
    pass: 1,
  };
}

/** A move the engine accepted, resolved to pile numbers. */
export type Transfer = { readonly from: number; readonly to: number; readonly count: number };

const topOf = (cards: readonly Card[]): Card | undefined => cards[cards.length - 1];

function cardsOn(board: Board, pile: number): readonly Card[] {
  if (pile === WASTE) return board.waste;
  if (isColumn(pile)) return board.tableau[columnIndex(pile)]!.up;
  return board.foundations[foundationSuit(pile)]!;
}

/** Whether `card` may be laid on a tableau pile whose top is `top` (undefined: an empty column). */
function fitsOnColumn(card: Card, top: Card | undefined): Violation | undefined {
  if (top === undefined) return rankOf(card) === KING ? undefined : violation('empty-column-king');
  if (rankOf(top) === rankOf(card) + 1 && isRed(top) !== isRed(card)) return undefined;
  return violation(
    'tableau-descending-alternating',
    `${formatCard(card)} does not go on ${formatCard(top)}: it must be one rank lower and of the other colour.`,
  );
}

function fitsOnFoundation(card: Card, suit: number, foundation: readonly Card[]): Violation | undefined {
  if (suitOf(card) !== suit) return violation('foundation-suit');
  if (rankOf(card) !== foundation.length + 1) {
    return violation(
      'foundation-ascending',
      `${formatCard(card)} does not go on the ${pileName(foundationPile(suit))} foundation, which needs rank ${foundation.length + 1}.`,
    );
  }
  return undefined;
}

/**
 * The one place that decides whether cards may move from one pile to another. Legal-move listing
 * and move checking both call it.
 */
export function checkTransfer(board: Board, rules: Rules, t: Transfer): Violation | undefined {
  const { from, to, count } = t;
  if (from === to) return violation('same-pile');
  const source = cardsOn(board, from);
  if (source.length === 0) return violation('empty-source', `${pileName(from)} has no card to move.`);
  if (!isColumn(from) && count !== 1) return violation('single-card-source');
  if (isFoundation(from)) {
    if (!rules.foundationToTableau) return violation('foundation-to-tableau-off');
    if (isFoundation(to)) return violation('foundation-to-foundation');
  }
  if (count > source.length) {
    return violation(
      'count-exceeds-face-up',
      `${pileName(from)} has ${source.length} face-up card${source.length === 1 ? '' : 's'}; ${count} cannot move.`,
    );
  }
  const bottom = source[source.length - count]!;
  for (let i = source.length - count + 1; i < source.length; i++) {
    if (fitsOnColumn(source[i]!, source[i - 1]) !== undefined) return violation('run-not-in-sequence');
  }
  if (isFoundation(to)) {
    if (count !== 1) return violation('foundation-single-card');
    return fitsOnFoundation(bottom, foundationSuit(to), board.foundations[foundationSuit(to)]!);
  }
  return fitsOnColumn(bottom, topOf(cardsOn(board, to)));
}

export function checkDraw(board: Board): Violation | undefined {
  return board.stock.length === 0 ? violation('draw-from-empty-stock') : undefined;
}

export function checkRecycle(board: Board, rules: Rules): Violation | undefined {
  if (board.stock.length > 0) return violation('recycle-needs-empty-stock');
  if (board.waste.length === 0) return violation('recycle-needs-waste');
  if (rules.passes !== null && board.pass >= rules.passes) {
    return violation(
      'pass-limit',
      `These rules allow ${rules.passes} pass${rules.passes === 1 ? '' : 'es'} through the deck, and all have been dealt.`,
    );
  }
  return undefined;
}

/** Resolves a client's move against the board (the `foundation` shorthand, the default count). */
export function resolveMove(board: Board, move: Move): PlayedMove | Violation {
  if (move.type !== 'move') return move;
  const from = pileIndex(move.from);
  if (from < 0) return violation('unknown-pile', `${JSON.stringify(move.from)} is not a pile.`);
  let to: number;
  if (move.to === 'foundation') {
    const card = topOf(cardsOn(board, from));
    if (card === undefined) return violation('empty-source', `${move.from} has no card to move.`);
    to = foundationPile(suitOf(card));
  } else {
    to = pileIndex(move.to);
    if (to <= WASTE) return violation('unknown-pile', `${JSON.stringify(move.to)} is not a destination.`);
  }
  return { type: 'move', from: move.from, to: pileName(to) as DestinationName, count: move.count ?? 1 };
}

/** Checks a resolved move: the same code paths that list legal moves. */
export function checkMove(board: Board, rules: Rules, move: PlayedMove): Violation | undefined {
  switch (move.type) {
    case 'draw':
      return checkDraw(board);
    case 'recycle':
      return checkRecycle(board, rules);
    case 'move':
      return checkTransfer(board, rules, {
        from: pileIndex(move.from),
        to: pileIndex(move.to),
        count: move.count,
      });
  }
}

/** Every legal move on the board, each as it would be recorded (concrete piles, explicit count). */
export function listMoves(board: Board, rules: Rules): PlayedMove[] {
  const moves: PlayedMove[] = [];
  if (checkDraw(board) === undefined) moves.push({ type: 'draw' });
  if (checkRecycle(board, rules) === undefined) moves.push({ type: 'recycle' });
  for (let from = 0; from < PILE_NAMES.length; from++) {
    const available = cardsOn(board, from).length;
    if (available === 0) continue;
    const maxCount = isColumn(from) ? available : 1;
    for (let to = 1; to < PILE_NAMES.length; to++) {
      for (let count = 1; count <= maxCount; count++) {
        if (isFoundation(to) && count > 1) break;
        if (checkTransfer(board, rules, { from, to, count }) === undefined) {
          moves.push({ type: 'move', from: pileName(from), to: pileName(to) as DestinationName, count });
        }
      }
    }
  }
  return moves;
}

/** What applying a move changed, enough to take it back exactly. */
export interface Applied {
  readonly board: Board;
  /** Cards dealt by a draw (1..3). */
  readonly drawn: number;
  /** Whether the move turned up a face-down tableau card. */
  readonly revealed: boolean;
}

function withColumn(tableau: readonly Column[], index: number, column: Column): Column[] {
  const next = tableau.slice();
  next[index] = column;
  return next;
}

function withFoundation(foundations: readonly (readonly Card[])[], suit: number, cards: readonly Card[]) {
  const next = foundations.slice();
  next[suit] = cards;
  return next;
}

/** Puts `cards` on `pile` (no checks: the move was checked when it was decided). */
function place(board: Board, pile: number, cards: readonly Card[]): Board {
  if (pile === WASTE) return { ...board, waste: [...board.waste, ...cards] };
  if (isColumn(pile)) {
    const column = board.tableau[columnIndex(pile)]!;
    return {
      ...board,
      tableau: withColumn(board.tableau, columnIndex(pile), { ...column, up: [...column.up, ...cards] }),
    };
  }
  const suit = foundationSuit(pile);
  return {
    ...board,
    foundations: withFoundation(board.foundations, suit, [...board.foundations[suit]!, ...cards]),
  };
}

/** Takes the top `count` cards off `pile`, returning them bottom to top. */
function take(board: Board, pile: number, count: number): [Board, readonly Card[]] {
  const cards = cardsOn(board, pile);
  const rest = cards.slice(0, cards.length - count);
  const taken = cards.slice(cards.length - count);
  if (pile === WASTE) return [{ ...board, waste: rest }, taken];
  if (isColumn(pile)) {
    const index = columnIndex(pile);
    return [
      { ...board, tableau: withColumn(board.tableau, index, { ...board.tableau[index]!, up: rest }) },
      taken,
    ];
  }
  return [{ ...board, foundations: withFoundation(board.foundations, foundationSuit(pile), rest) }, taken];
}

/** Applies a checked move. A move that empties a column's face-up run turns its next card up. */
export function applyMove(board: Board, rules: Rules, move: PlayedMove): Applied {
  switch (move.type) {
    case 'draw': {
      const drawn = Math.min(rules.draw, board.stock.length);
      const stock = board.stock.slice();
      const waste = board.waste.slice();
      // One card at a time: the last card taken ends on top of the waste.
      for (let i = 0; i < drawn; i++) waste.push(stock.pop()!);
      return { board: { ...board, stock, waste }, drawn, revealed: false };
    }
    case 'recycle':
      // The waste turned over as a packet: its bottom card (the first dealt) becomes the stock's top.
      return {
        board: { ...board, stock: board.waste.slice().reverse(), waste: [], pass: board.pass + 1 },
        drawn: 0,
        revealed: false,
      };
    case 'move': {
      const from = pileIndex(move.from);
      const [lifted, cards] = take(board, from, move.count);
      let next = place(lifted, pileIndex(move.to), cards);
      let revealed = false;
      if (isColumn(from)) {
        const index = columnIndex(from);
        const column = next.tableau[index]!;
        if (column.up.length === 0 && column.hidden.length > 0) {
          revealed = true;
          next = {
            ...next,
            tableau: withColumn(next.tableau, index, {
              hidden: column.hidden.slice(0, -1),
              up: [column.hidden[column.hidden.length - 1]!],
            }),
          };
        }
      }
      return { board: next, drawn: 0, revealed };
    }
  }
}

/** The exact inverse of `applyMove`: the board before the move, given what the move changed. */
export function unapplyMove(board: Board, move: PlayedMove, applied: Omit<Applied, 'board'>): Board {
  switch (move.type) {
    case 'draw': {
      const stock = board.stock.slice();
      const waste = board.waste.slice();
      for (let i = 0; i < applied.drawn; i++) stock.push(waste.pop()!);
      return { ...board, stock, waste };
    }
    case 'recycle':
      return { ...board, waste: board.stock.slice().reverse(), stock: [], pass: board.pass - 1 };
    case 'move': {
      const from = pileIndex(move.from);
      let before = board;
      if (applied.revealed) {
        const index = columnIndex(from);
        const column = before.tableau[index]!;
        before = {
          ...before,
          tableau: withColumn(before.tableau, index, { hidden: [...column.hidden, column.up[0]!], up: [] }),
        };
      }
      const [lifted, cards] = take(before, pileIndex(move.to), move.count);
      return place(lifted, from, cards);
    }
  }
}

export const isCleared = (board: Board): boolean => board.foundations.every((cards) => cards.length === 13);

/** Every card on the board, for invariants: each of the 52 exactly once. */
export function allCards(board: Board): Card[] {
  return [
    ...board.stock,
    ...board.waste,
    ...board.foundations.flat(),
    ...board.tableau.flatMap((column) => [...column.hidden, ...column.up]),
  ];
}
