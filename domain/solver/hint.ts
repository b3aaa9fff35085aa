import { applyMove, type Board, checkDraw, checkRecycle, listMoves } from '../board.js';
import { type Card, formatCard } from '../cards.js';
import { canUndo, type GameState } from '../game.js';
import type { PlayedMove } from '../moves.js';
import { columnIndex, foundationSuit, isColumn, pileIndex, WASTE } from '../piles.js';
import type { Rules } from '../rules.js';
import { safeAutoplay } from './autoplay.js';

export interface Hint {
  readonly move: PlayedMove | null;
  readonly reason: string;
}

/** How far the hint looks ahead over cards the player can see. */
const DEPTH = 3;

/**
 * The board as the player knows it. Face-down cards and the stock are the cards the player has not
 * seen, in an order the player cannot know; here they are dealt from that set sorted, so the board
 * depends on nothing but what is visible. The hint never looks past a card turned up or drawn, so
 * those stand-ins never count.
 */
export function playerBoard(board: Board): Board {
  const unseen = [...board.tableau.flatMap((column) => column.hidden), ...board.stock].sort((a, b) => a - b);
  let next = 0;
  const take = (n: number): Card[] => {
    next += n;
    return unseen.slice(next - n, next);
  };
  const tableau = board.tableau.map((column) => ({ hidden: take(column.hidden.length), up: column.up }));
  return { ...board, tableau, stock: take(board.stock.length) };
}

const hiddenCount = (board: Board) => board.tableau.reduce((sum, column) => sum + column.hidden.length, 0);
const homeCount = (board: Board) => board.foundations.reduce((sum, cards) => sum + cards.length, 0);

/** How good a position looks: cards home, cards turned up, cards out of the talon, empty columns. */
function value(board: Board): number {
  const empty = board.tableau.filter((column) => column.hidden.length + column.up.length === 0).length;
  const talon = board.stock.length + board.waste.length;
  return 100 * homeCount(board) - 50 * hiddenCount(board) - 8 * talon + 10 * empty;
}

interface Plan {
  readonly value: number;
  readonly length: number;
}

/** A move and the best line after it, `depth` moves in all; a turned-up card ends a line. */
function planAfter(board: Board, rules: Rules, move: PlayedMove, depth: number) {
  const applied = applyMove(board, rules, move);
  const rest = applied.revealed
    ? { value: value(applied.board), length: 0 }
    : best(applied.board, rules, depth - 1);
  return { applied, plan: { value: rest.value, length: rest.length + 1 } };
}

/** The best value reachable in `depth` more moves over visible cards; a turned-up card ends a line. */
function best(board: Board, rules: Rules, depth: number): Plan {
  let plan: Plan = { value: value(board), length: 0 };
  if (depth === 0) return plan;
  for (const move of listMoves(board, rules)) {
    if (move.type !== 'move') continue;
    const after = planAfter(board, rules, move, depth).plan;
    if (after.value > plan.value || (after.value === plan.value && after.length < plan.length)) {
      plan = after;
    }
  }
  return plan;
}

function describe(board: Board, move: PlayedMove & { type: 'move' }): string {
  const from = pileIndex(move.from);
  const source =
    from === WASTE
      ? board.waste
      : isColumn(from)
        ? board.tableau[columnIndex(from)]!.up
        : board.foundations[foundationSuit(from)]!;
  const card = source[source.length - move.count];
  const cards = move.count > 1 ? `${move.count} cards from ${formatCard(card!)}` : formatCard(card!);
  return `${cards} from ${move.from} to ${move.to}`;
}

/**
 * A good next move, judged only from what the player can see: a safe move home if there is one, else
 * the first move of the best short plan over the visible cards (a plan ends where a face-down card
 * turns up: what it is cannot be known), else a draw or a recycle, else none and why.
 */
export function hint(state: GameState): Hint {
  if (state.status !== 'playing') return { move: null, reason: `The game is ${state.status}.` };
  const rules = state.deal.rules;
  const board = playerBoard(state.board);
  const safe = safeAutoplay({ ...state, board })[0];
  if (safe !== undefined && safe.type === 'move') {
    return { move: safe, reason: `Move ${describe(board, safe)}: it is never needed in the tableau again.` };
  }

  const now = value(board);
  let chosen: { move: PlayedMove & { type: 'move' }; plan: Plan; revealed: boolean; gain: number } | null =
    null;
  for (const move of listMoves(board, rules)) {
    if (move.type !== 'move') continue;
    const { applied, plan } = planAfter(board, rules, move, DEPTH);
    if (
      plan.value > now &&
      (chosen === null ||
        plan.value > chosen.plan.value ||
        (plan.value === chosen.plan.value && plan.length < chosen.plan.length))
    ) {
      chosen = { move, plan, revealed: applied.revealed, gain: homeCount(applied.board) - homeCount(board) };
    }
  }
  if (chosen !== null) {
    const why = chosen.revealed
      ? 'it turns up a face-down card'
      : chosen.gain > 0
        ? 'it gets a card to its foundation'
        : chosen.plan.length > 1
          ? `it opens a way to progress within ${chosen.plan.length} moves`
          : 'it makes progress';
    return { move: chosen.move, reason: `Move ${describe(board, chosen.move)}: ${why}.` };
  }
  if (checkDraw(board) === undefined)
    return { move: { type: 'draw' }, reason: 'No move on the table helps: draw.' };
  if (checkRecycle(board, rules) === undefined)
    return { move: { type: 'recycle' }, reason: 'The stock is empty: turn the waste over for another pass.' };
  return {
    move: null,
    reason: canUndo(state)
      ? 'No move makes progress and the stock is spent: undo to try another line.'
      : 'No move makes progress and the stock is spent: the game cannot be won from here.',
  };
}
