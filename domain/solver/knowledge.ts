import type { Board } from '../board.js';
import type { Card } from '../cards.js';

/**
 * What the player knows of a board, and boards that agree with it.
 *
 * The player has seen every face-up card, the waste, the foundations and, from the second pass on,
 * the stock: it is the last pass's waste turned over, in the order it was dealt. The cards never
 * seen are the face-down cards of the tableau and, in the first pass, the stock. (A card seen and
 * then put back by an undo counts as unseen here: the hint may know less than the player, never more.)
 */

/** Whether the player has seen the stock's order: every card of it has been on the waste. */
export const stockKnown = (board: Board): boolean => board.pass >= 2;

/** The cards the player has not seen, in increasing order: they say nothing of where they lie. */
export function unseenCards(board: Board): Card[] {
  const unseen = board.tableau.flatMap((column) => column.hidden);
  if (!stockKnown(board)) unseen.push(...board.stock);
  return unseen.sort((a, b) => a - b);
}

/**
 * The board with the unseen cards dealt into the unseen places in the order given (face-down cards
 * column by column, bottom to top, then the stock from the bottom), keeping everything seen.
 */
export function withUnseen(board: Board, cards: readonly Card[]): Board {
  let next = 0;
  const take = (n: number): Card[] => {
    next += n;
    return cards.slice(next - n, next);
  };
  const tableau = board.tableau.map((column) => ({ hidden: take(column.hidden.length), up: column.up }));
  return { ...board, tableau, stock: stockKnown(board) ? board.stock : take(board.stock.length) };
}

/**
 * The board as the player knows it: the unseen cards stand in their places in increasing order, so
 * the board depends on nothing but what is visible. Code that reads it must never look at those.
 */
export const playerBoard = (board: Board): Board => withUnseen(board, unseenCards(board));

/**
 * A seed for sampling the unseen cards, from what the player knows and nothing else: the unseen
 * cards, where the unseen places are, and the pass. Moves that only rearrange face-up cards change
 * none of these, so every position a hint's plan passes through samples alike, and the hint keeps
 * following the plan it chose (FNV-1a, 32 bits).
 */
export function samplingSeed(board: Board): number {
  let hash = 0x811c9dc5;
  const mix = (value: number) => {
    hash = Math.imul(hash ^ value, 0x01000193);
  };
  for (const card of unseenCards(board)) mix(card);
  for (const column of board.tableau) mix(100 + column.hidden.length);
  mix(200 + (stockKnown(board) ? 0 : board.stock.length));
  mix(300 + board.pass);
  return hash >>> 0;
}

/** n! for small n, capped: whether every order of the unseen cards can be tried. */
export function orders(n: number, cap: number): number {
  let product = 1;
  for (let k = 2; k <= n && product <= cap; k++) product *= k;
  return product;
}

/** Every permutation of `cards`, in a fixed order (for a handful of unseen cards: all their orders). */
export function permutations(cards: readonly Card[]): Card[][] {
  if (cards.length <= 1) return [cards.slice()];
  const result: Card[][] = [];
  for (const [i, card] of cards.entries()) {
    const rest = [...cards.slice(0, i), ...cards.slice(i + 1)];
    for (const tail of permutations(rest)) result.push([card, ...tail]);
  }
  return result;
}

/** A uniform shuffle of `cards` (Fisher-Yates), drawing from `next` (32-bit outputs). */
export function shuffled(cards: readonly Card[], next: () => number): Card[] {
  const result = cards.slice();
  for (let i = result.length - 1; i > 0; i--) {
    // The bias of a plain modulo is below 2^-26 for 52 cards: nothing a sample can show.
    const j = next() % (i + 1);
    const swap = result[i]!;
    result[i] = result[j]!;
    result[j] = swap;
  }
  return result;
}
