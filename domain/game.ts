import {
  applyInternalMove,
  type Board,
  checkInternalMove,
  isCleared,
  layOut,
  listMoves,
  resolveMove,
  unapplyInternalMove,
} from './board.js';
import { type Card, checkDeck, formatCard, parseCard } from './cards.js';
import { type DealtData, type GameEvent, playedEvent, playedMove } from './events.js';
import { type Command, type InternalMove, type PlayedMove, toInternalMove, toPlayedMove } from './moves.js';
import type { Rules } from './rules.js';
import { OPENING_SCORE, type Score, scoreMove } from './score.js';
import { isViolation, type Violation, violation } from './violations.js';

export type GameStatus = 'playing' | 'won' | 'resigned';

/** An immutable stack (newest on top) that shares its tail: pushing and popping copy nothing. */
export interface Stack<T> {
  readonly top: T;
  readonly rest: Stack<T> | null;
  readonly size: number;
}

export const push = <T>(stack: Stack<T> | null, top: T): Stack<T> => ({
  top,
  rest: stack,
  size: (stack?.size ?? 0) + 1,
});

/** A move in effect, with what it changed: enough to take it back exactly. */
export interface Step {
  readonly move: InternalMove;
  readonly drawn: number;
  readonly revealed: boolean;
  readonly scoreBefore: Score;
}

export interface Deal {
  readonly deck: readonly Card[];
  readonly seed: number | null;
  readonly rules: Rules;
  /** For a game on a daily deal: its UTC day, `YYYY-MM-DD`. */
  readonly daily?: string;
}

/** The game after some prefix of its log. */
export interface GameState {
  /** The version of the last event folded: 0 is the deal. */
  readonly version: number;
  readonly deal: Deal;
  readonly board: Board;
  readonly status: GameStatus;
  readonly score: Score;
  /** The moves in effect, newest on top: what undo takes back. */
  readonly done: Stack<Step> | null;
  /** The moves undone since the last new move, newest on top: what redo replays. */
  readonly undone: Stack<InternalMove> | null;
}

/** The first event of a game: the deal (of the daily deal of `daily`, a UTC day, when given). */
export function deal(deck: readonly Card[], seed: number | null, rules: Rules, daily?: string): GameEvent {
  const problem = checkDeck(deck);
  if (problem) throw new Error(`not a deck: ${problem.problem}`);
  return { type: 'dealt', data: { deck: deck.map(formatCard), seed, rules, ...(daily ? { daily } : {}) } };
}

function start(data: DealtData): GameState {
  const deck = data.deck.map((code) => parseCard(code)!);
  return {
    version: 0,
    deal: { deck, seed: data.seed, rules: data.rules, ...(data.daily ? { daily: data.daily } : {}) },
    board: layOut(deck),
    status: 'playing',
    score: OPENING_SCORE,
    done: null,
    undone: null,
  };
}

/** A won or resigned game takes no more actions of any kind. */
export const gameOver = (state: GameState): Violation | undefined =>
  state.status === 'playing'
    ? undefined
    : violation('game-over', `The game is ${state.status}: it takes no more actions.`);

/**
 * Actions a game takes after its deal. It bounds what a game can cost: its log, its snapshot (which
 * holds the moves in effect) and a replay from the deal.
 */
export const MAX_ACTIONS = 10_000;

/** A game that has taken MAX_ACTIONS actions takes no more, though it is still in play. */
export const tooLong = (state: GameState): Violation | undefined =>
  state.version < MAX_ACTIONS
    ? undefined
    : violation(
        'game-too-long',
        `The game has taken ${MAX_ACTIONS} actions after its deal, the most a game may.`,
      );

/** Whether the game takes another action: in play, and under MAX_ACTIONS. */
const takesActions = (state: GameState): boolean => state.status === 'playing' && state.version < MAX_ACTIONS;

/** Decides what a command does to a game: the one event it appends, or the rule it breaks. */
export function decide(state: GameState, command: Command): GameEvent | Violation {
  const refused = gameOver(state) ?? tooLong(state);
  if (refused) return refused;
  switch (command.type) {
    case 'undo':
      return state.done
        ? { type: 'undone', data: { move: toPlayedMove(state.done.top.move) } }
        : violation('nothing-to-undo');
    case 'redo':
      return state.undone
        ? { type: 'redone', data: { move: toPlayedMove(state.undone.top) } }
        : violation('nothing-to-redo');
    case 'resign':
      return { type: 'resigned', data: {} };
    default: {
      const move = resolveMove(state.board, command);
      if (isViolation(move)) return move;
      return checkInternalMove(state.board, state.deal.rules, move) ?? playedEvent(toPlayedMove(move));
    }
  }
}

function play(state: GameState, move: InternalMove, undone: GameState['undone']): GameState {
  const { board, drawn, revealed } = applyInternalMove(state.board, state.deal.rules, move);
  return {
    version: state.version + 1,
    deal: state.deal,
    undone,
    board,
    score: scoreMove(state.score, move, revealed),
    status: isCleared(board) ? 'won' : 'playing',
    done: push(state.done, { move, drawn, revealed, scoreBefore: state.score }),
  };
}

/** Folds one more event into the game. Events were checked when decided, so this trusts them. */
export function evolve(state: GameState | null, event: GameEvent): GameState {
  if (event.type === 'dealt') {
    if (state !== null) throw new Error('a game is dealt once');
    return start(event.data);
  }
  if (state === null) throw new Error(`a log starts with its deal, not ${event.type}`);
  const version = state.version + 1;
  switch (event.type) {
    case 'drawn':
    case 'recycled':
    case 'moved':
      // A new move ends the redo line.
      return play(state, toInternalMove(playedMove(event)!), null);
    case 'undone': {
      const step = state.done!.top;
      return {
        ...state,
        version,
        board: unapplyInternalMove(state.board, step.move, step),
        score: step.scoreBefore,
        done: state.done!.rest,
        undone: push(state.undone, step.move),
      };
    }
    case 'redone':
      return play(state, state.undone!.top, state.undone!.rest);
    case 'resigned':
      return { ...state, version, status: 'resigned' };
  }
}

/** The game after every event of the log, in order. */
export function fold(events: Iterable<GameEvent>, from: GameState | null = null): GameState {
  let state = from;
  for (const event of events) state = evolve(state, event);
  if (state === null) throw new Error('an empty log has no game');
  return state;
}

/** Every legal move now: the same checks that decide a move, run over every candidate. */
export const legalMoves = (state: GameState): PlayedMove[] =>
  takesActions(state) ? listMoves(state.board, state.deal.rules) : [];

export const canUndo = (state: GameState): boolean => takesActions(state) && state.done !== null;
export const canRedo = (state: GameState): boolean => takesActions(state) && state.undone !== null;
/** Moves in effect: draws, recycles and card moves, less those undone. */
export const movesMade = (state: GameState): number => state.done?.size ?? 0;
