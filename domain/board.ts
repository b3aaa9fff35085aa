import {
  allHome,
  type Card,
  DECK_SIZE,
  fitsOn,
  formatCard,
  goesOn,
  KING,
  RANKS,
  rankOf,
  suitOf,
} from './cards.js';
import {
  type InternalMove,
  type Move,
  type PlayedMove,
  type Transfer,
  toInternalMove,
  toPlayedMove,
} from './moves.js';
import {
  COLUMNS,
  columnIndex,
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
import { type RuleName, type Violation, violation } from './violations.js';

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
 * Lays out a deck in physical dealing order (docs/rules.md): row r deals one card to each of the
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

const topOf = (cards: readonly Card[]): Card | undefined => cards[cards.length - 1];

/** The cards of pile number `pile` that a move may take: the waste, a column's face-up run, a foundation. */
export function cardsOn(board: Board, pile: number): readonly Card[] {
  if (pile === WASTE) return board.waste;
  if (isColumn(pile)) return board.tableau[columnIndex(pile)]!.up;
  return board.foundations[foundationSuit(pile)]!;
}

/** Whether `card` may be laid on a tableau pile whose top is `top` (undefined: an empty column). */
function fitsOnColumn(card: Card, top: Card | undefined): RuleName | undefined {
  if (top === undefined) return rankOf(card) === KING ? undefined : 'empty-column-king';
  if (fitsOn(card, top)) return undefined;
  return 'tableau-descending-alternating';
}

/**
 * The one place that decides whether cards may move from one pile to another: the rule broken, or
 * undefined. Legal-move listing calls it for every candidate, so it only names the rule; `explain`
 * puts the case in words when a player needs them.
 */
export function checkTransfer(board: Board, rules: Rules, t: Transfer): RuleName | undefined {
  const { from, to, count } = t;
  if (from === to) return 'same-pile';
  const source = cardsOn(board, from);
  if (source.length === 0) return 'empty-source';
  if (!isColumn(from) && count !== 1) return 'single-card-source';
  if (isFoundation(from)) {
    if (!rules.foundationToTableau) return 'foundation-to-tableau-off';
    if (isFoundation(to)) return 'foundation-to-foundation';
  }
  if (count > source.length) return 'count-exceeds-face-up';
  const bottom = source[source.length - count]!;
  for (let i = source.length - count + 1; i < source.length; i++) {
    if (fitsOnColumn(source[i]!, source[i - 1]) !== undefined) return 'run-not-in-sequence';
  }
  if (isFoundation(to)) {
    if (count !== 1) return 'foundation-single-card';
    if (suitOf(bottom) !== foundationSuit(to)) return 'foundation-suit';
    return goesOn(bottom, board.foundations[foundationSuit(to)]!.length) ? undefined : 'foundation-ascending';
  }
  return fitsOnColumn(bottom, topOf(cardsOn(board, to)));
}

/** A broken rule, in words that fit the case (only visible cards are named). */
function explainTransfer(board: Board, t: Transfer, rule: RuleName): Violation {
  const source = cardsOn(board, t.from);
  const card = source[source.length - t.count];
  switch (rule) {
    case 'empty-source':
      return violation(rule, `${pileName(t.from)} has no card to move.`);
    case 'count-exceeds-face-up':
      return violation(
        rule,
        `${pileName(t.from)} has ${source.length} face-up card${source.length === 1 ? '' : 's'}; ${t.count} cannot move.`,
      );
    case 'tableau-descending-alternating': {
      const top = topOf(cardsOn(board, t.to))!;
      return violation(
        rule,
        `${formatCard(card!)} does not go on ${formatCard(top)}: it must be one rank lower and of the other colour.`,
      );
    }
    case 'foundation-ascending': {
      const needs = board.foundations[foundationSuit(t.to)]!.length + 1;
      return violation(
        rule,
        `${formatCard(card!)} does not go on ${pileName(t.to)}, which needs rank ${RANKS[needs - 1]}.`,
      );
    }
    default:
      return violation(rule);
  }
}

export function checkDraw(board: Board): RuleName | undefined {
  return board.stock.length === 0 ? 'draw-from-empty-stock' : undefined;
}

export function checkRecycle(board: Board, rules: Rules): RuleName | undefined {
  if (board.stock.length > 0) return 'recycle-needs-empty-stock';
  if (board.waste.length === 0) return 'recycle-needs-waste';
  if (rules.passes !== null && board.pass >= rules.passes) return 'pass-limit';
  return undefined;
}

/**
 * Resolves a client's move against the board, names to numbers (the `foundation` shorthand, the
 * default count): the one place a client's pile names come in.
 */
export function resolveMove(board: Board, move: Move): InternalMove | Violation {
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
  return { type: 'move', from, to, count: move.count ?? 1 };
}

/** Checks a resolved move: the same code paths that list legal moves. */
export function checkInternalMove(board: Board, rules: Rules, move: InternalMove): Violation | undefined {
  switch (move.type) {
    case 'draw': {
      const rule = checkDraw(board);
      return rule && violation(rule);
    }
    case 'recycle': {
      const rule = checkRecycle(board, rules);
      if (rule !== 'pass-limit') return rule && violation(rule);
      const passes = `${rules.passes} pass${rules.passes === 1 ? '' : 'es'}`;
      return violation(rule, `These rules allow ${passes} through the deck, and all have been dealt.`);
    }
    case 'move': {
      const rule = checkTransfer(board, rules, move);
      return rule && explainTransfer(board, move, rule);
    }
  }
}

/** Every legal move on the board (concrete piles, explicit count). */
export function listInternalMoves(board: Board, rules: Rules): InternalMove[] {
  const moves: InternalMove[] = [];
  if (checkDraw(board) === undefined) moves.push({ type: 'draw' });
  if (checkRecycle(board, rules) === undefined) moves.push({ type: 'recycle' });
  for (let from = 0; from < PILE_NAMES.length; from++) {
    const available = cardsOn(board, from).length;
    if (available === 0) continue;
    const maxCount = isColumn(from) ? available : 1;
    for (let to = 1; to < PILE_NAMES.length; to++) {
      for (let count = 1; count <= maxCount; count++) {
        if (isFoundation(to) && count > 1) break;
        if (checkTransfer(board, rules, { from, to, count }) === undefined)
          moves.push({ type: 'move', from, to, count });
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

/** Copies of the containers a move changes; everything else is shared with the board before. */
class Draft {
  private tableau: Column[] | undefined;
  private foundations: (readonly Card[])[] | undefined;
  private waste: readonly Card[] | undefined;

  constructor(private readonly board: Board) {}

  cards(pile: number): readonly Card[] {
    if (pile === WASTE) return this.waste ?? this.board.waste;
    if (isColumn(pile)) return (this.tableau ?? this.board.tableau)[columnIndex(pile)]!.up;
    return (this.foundations ?? this.board.foundations)[foundationSuit(pile)]!;
  }

  column(index: number): Column {
    return (this.tableau ?? this.board.tableau)[index]!;
  }

  setColumn(index: number, column: Column): void {
    this.tableau ??= this.board.tableau.slice();
    this.tableau[index] = column;
  }

  set(pile: number, cards: readonly Card[]): void {
    if (pile === WASTE) this.waste = cards;
    else if (isColumn(pile))
      this.setColumn(columnIndex(pile), { hidden: this.column(columnIndex(pile)).hidden, up: cards });
    else {
      this.foundations ??= this.board.foundations.slice();
      this.foundations[foundationSuit(pile)] = cards;
    }
  }

  /** Moves the top `count` cards of one pile onto another, order kept. */
  transfer(from: number, to: number, count: number): void {
    const source = this.cards(from);
    const cut = source.length - count;
    this.set(to, this.cards(to).concat(source.slice(cut)));
    this.set(from, source.slice(0, cut));
  }

  done(): Board {
    return {
      stock: this.board.stock,
      waste: this.waste ?? this.board.waste,
      foundations: this.foundations ?? this.board.foundations,
      tableau: this.tableau ?? this.board.tableau,
      pass: this.board.pass,
    };
  }
}

/** Applies a checked move. A move that empties a column's face-up run turns its next card up. */
export function applyInternalMove(board: Board, rules: Rules, move: InternalMove): Applied {
  switch (move.type) {
    case 'draw': {
      const drawn = Math.min(rules.draw, board.stock.length);
      const stock = board.stock.slice();
      const waste = board.waste.slice();
      // One card at a time: the last card taken ends on top of the waste.
      for (let i = 0; i < drawn; i++) waste.push(stock.pop()!);
      return { board: { ...board, stock, waste }, drawn, revealed: false };
    }
    case 'recycle': {
      // The waste turned over as a packet: its bottom card (the first dealt) becomes the stock's top.
      const stock = board.waste.slice().reverse();
      return { board: { ...board, stock, waste: [], pass: board.pass + 1 }, drawn: 0, revealed: false };
    }
    case 'move': {
      const { from } = move;
      const draft = new Draft(board);
      draft.transfer(from, move.to, move.count);
      let revealed = false;
      if (isColumn(from)) {
        const column = draft.column(columnIndex(from));
        if (column.up.length === 0 && column.hidden.length > 0) {
          revealed = true;
          draft.setColumn(columnIndex(from), {
            hidden: column.hidden.slice(0, -1),
            up: column.hidden.slice(-1),
          });
        }
      }
      return { board: draft.done(), drawn: 0, revealed };
    }
  }
}

/** The exact inverse of `applyInternalMove`: the board before the move, given what the move changed. */
export function unapplyInternalMove(
  board: Board,
  move: InternalMove,
  applied: Omit<Applied, 'board'>,
): Board {
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
      const { from } = move;
      const draft = new Draft(board);
      if (applied.revealed) {
        const column = draft.column(columnIndex(from));
        draft.setColumn(columnIndex(from), { hidden: column.hidden.concat(column.up), up: [] });
      }
      draft.transfer(move.to, from, move.count);
      return draft.done();
    }
  }
}

/**
 * The same, for callers that speak the API's moves (the solver's hints and lines, the tests): names
 * in, names out, converted once at this edge.
 */
export const listMoves = (board: Board, rules: Rules): PlayedMove[] =>
  listInternalMoves(board, rules).map(toPlayedMove);
export const checkMove = (board: Board, rules: Rules, move: PlayedMove): Violation | undefined =>
  checkInternalMove(board, rules, toInternalMove(move));
export const applyMove = (board: Board, rules: Rules, move: PlayedMove): Applied =>
  applyInternalMove(board, rules, toInternalMove(move));

export const isCleared = (board: Board): boolean => allHome(board.foundations.map((cards) => cards.length));

/** Every card on the board, for invariants: each of the 52 exactly once. */
export function allCards(board: Board): Card[] {
  return [
    ...board.stock,
    ...board.waste,
    ...board.foundations.flat(),
    ...board.tableau.flatMap((column) => [...column.hidden, ...column.up]),
  ];
}
