import { type CardCode, formatCard, type SUITS } from './cards.js';
import type { GameEvent } from './events.js';
import { canRedo, canUndo, type GameState, type GameStatus, legalMoves, movesMade } from './game.js';
import type { PlayedMove } from './moves.js';
import { type Rules, recyclesLeft } from './rules.js';
import type { Score } from './score.js';

export interface ColumnView {
  /** Face-down cards under the face-up run. */
  readonly hidden: number;
  /** The face-up run, bottom to top. */
  readonly cards: readonly CardCode[];
  /** Only once the game is over: the face-down cards themselves, bottom to top. */
  readonly hiddenCards?: readonly CardCode[];
}

/** What a player (or anyone, once the game is over) may see of a game: docs/api.md. */
export interface GameView {
  readonly id: string;
  readonly version: number;
  readonly status: GameStatus;
  readonly rules: Rules;
  /** `cards` only once the game is over: bottom to top like every pile, so the next card drawn is the last. */
  readonly stock: { readonly count: number; readonly cards?: readonly CardCode[] };
  readonly waste: readonly CardCode[];
  readonly foundations: Readonly<Record<(typeof SUITS)[number], readonly CardCode[]>>;
  readonly tableau: readonly ColumnView[];
  readonly pass: number;
  readonly recyclesLeft: number | null;
  readonly moves: number;
  readonly score: Score;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly legalMoves: readonly PlayedMove[];
  readonly deck?: readonly CardCode[];
  /** Only once the game is over: the numbered deal's seed, or null for a deal chosen or given as cards. */
  readonly seed?: number | null;
  /** A game on a daily deal: its UTC day, `YYYY-MM-DD`. */
  readonly daily?: string;
}

const codes = (cards: readonly number[]): CardCode[] => cards.map(formatCard);

/**
 * The view of a game at some version. `reveal` shows the deal (deck, seed, face-down cards and the
 * stock's order); it is for finished games only, and is on by default when `state` itself is finished.
 */
export function toView(state: GameState, id: string, reveal: boolean = state.status !== 'playing'): GameView {
  const { board, deal } = state;
  return {
    id,
    version: state.version,
    status: state.status,
    rules: deal.rules,
    stock: reveal ? { count: board.stock.length, cards: codes(board.stock) } : { count: board.stock.length },
    waste: codes(board.waste),
    foundations: {
      C: codes(board.foundations[0]!),
      D: codes(board.foundations[1]!),
      H: codes(board.foundations[2]!),
      S: codes(board.foundations[3]!),
    },
    tableau: board.tableau.map((column) =>
      reveal
        ? { hidden: column.hidden.length, cards: codes(column.up), hiddenCards: codes(column.hidden) }
        : { hidden: column.hidden.length, cards: codes(column.up) },
    ),
    pass: board.pass,
    recyclesLeft: recyclesLeft(deal.rules, board.pass),
    moves: movesMade(state),
    score: state.score,
    canUndo: canUndo(state),
    canRedo: canRedo(state),
    legalMoves: legalMoves(state),
    ...(reveal ? { deck: codes(deal.deck), seed: deal.seed } : {}),
    ...(deal.daily ? { daily: deal.daily } : {}),
  };
}

/**
 * An event as it may be shown. Only the deal holds cards nobody has seen; while the game is in play
 * it shows the rules alone.
 */
export function publicEvent(
  event: GameEvent,
  reveal: boolean,
): GameEvent | { type: 'dealt'; data: { rules: Rules; daily?: string } } {
  if (event.type === 'dealt' && !reveal) {
    const { rules, daily } = event.data;
    return { type: 'dealt', data: { rules, ...(daily ? { daily } : {}) } };
  }
  return event;
}
