import { applyMove, type Board } from '../board.js';
import { type Card, rankOf, suitOf } from '../cards.js';
import type { GameState } from '../game.js';
import type { PlayedMove } from '../moves.js';
import { columnPile, type DestinationName, foundationPile, pileName } from '../piles.js';
import type { Rules } from '../rules.js';
import { neverNeeded, wasteIsFixed } from './safety.js';
import { type SolveBudget, solveBoard } from './solve.js';

/** Whether `card`, free to go to its foundation, can never be needed in the tableau again. */
const safeToFoundation = (board: Board, rules: Rules, card: Card): boolean =>
  neverNeeded(
    card,
    board.foundations.map((cards) => cards.length),
    rules.foundationToTableau,
  );

const top = (cards: readonly Card[]): Card | undefined => cards[cards.length - 1];

/** The next safe move to a foundation on `board`, if any. */
function nextSafeMove(board: Board, rules: Rules): PlayedMove | undefined {
  const fitsHome = (card: Card) => board.foundations[suitOf(card)]!.length === rankOf(card) - 1;
  const home = (card: Card) => pileName(foundationPile(suitOf(card))) as DestinationName;
  for (const [i, column] of board.tableau.entries()) {
    const card = top(column.up);
    if (card !== undefined && fitsHome(card) && safeToFoundation(board, rules, card)) {
      return { type: 'move', from: pileName(columnPile(i)), to: home(card), count: 1 };
    }
  }
  // The waste's top only when taking it out of the talon cannot change what later passes show.
  const card = top(board.waste);
  if (
    card !== undefined &&
    wasteIsFixed(rules.draw, board.pass, rules.passes ?? Number.POSITIVE_INFINITY) &&
    fitsHome(card) &&
    safeToFoundation(board, rules, card)
  ) {
    return { type: 'move', from: 'waste', to: home(card), count: 1 };
  }
  return undefined;
}

/**
 * Every move to the foundations that can never cost the game, in order, each legal after the ones
 * before it: a tableau card whose possible uses in the tableau are all gone, and the waste's top under
 * the same condition when no recycle is left (or with draw 1), since otherwise taking a card out of
 * the talon changes which cards a later draw-3 pass shows.
 */
export function safeAutoplay(state: GameState): PlayedMove[] {
  if (state.status !== 'playing') return [];
  const rules = state.deal.rules;
  let board = state.board;
  const moves: PlayedMove[] = [];
  for (;;) {
    const move = nextSafeMove(board, rules);
    if (move === undefined) return moves;
    moves.push(move);
    board = applyMove(board, rules, move).board;
  }
}

/**
 * A line that wins from here, when the finish can be proved from what the player knows: no tableau
 * card face down, and the stock's order known, because the stock is empty or has been dealt through
 * once already (from the second pass on the stock is the last pass's waste, in the order seen). Then
 * the whole board is known to the player and the solver plays it out. Otherwise, or if the solver
 * finds no win within the budget, null.
 */
export function autocomplete(state: GameState, budget: SolveBudget = {}): PlayedMove[] | null {
  if (state.status !== 'playing') return null;
  const { board } = state;
  if (board.tableau.some((column) => column.hidden.length > 0)) return null;
  if (board.stock.length > 0 && board.pass < 2) return null;
  const solved = solveBoard(board, state.deal.rules, budget);
  return solved.result === 'won' ? solved.line : null;
}
