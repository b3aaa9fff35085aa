import type { GameState } from '../game.js';
import type { PlayedMove } from '../moves.js';
import { unseenCards } from './knowledge.js';
import { playerMoves } from './line.js';
import { play } from './play.js';
import { Position } from './position.js';
import { safeMove } from './safety.js';
import { type SolveBudget, solveBoard } from './solve.js';

/**
 * Every move to the foundations that can never cost the game, in order, each legal after the ones
 * before it: the search's own safe moves (`safeMove`), played one after another on its board.
 */
export function safeAutoplay(state: GameState): PlayedMove[] {
  if (state.status !== 'playing') return [];
  const position = new Position(state.board, state.deal.rules);
  const moves: PlayedMove[] = [];
  for (let m = safeMove(position); m >= 0; m = safeMove(position)) {
    moves.push(...playerMoves(position.draw, m, position.wasteSize, position.talonSize));
    play(position, m);
  }
  return moves;
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
  if (unseenCards(state.board).length > 0) return null;
  const solved = solveBoard(state.board, state.deal.rules, budget);
  return solved.result === 'won' ? solved.line : null;
}
