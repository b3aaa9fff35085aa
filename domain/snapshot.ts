import type { Board } from './board.js';
import { type Deal, type GameState, type GameStatus, push, type Stack, type Step } from './game.js';
import type { PlayedMove } from './moves.js';
import type { Score } from './score.js';

/**
 * A game state as plain JSON, for snapshots (a cache beside the log: it can be deleted and rebuilt
 * by folding the log). The shared-tail stacks become arrays, oldest first.
 */
export interface StateSnapshot {
  readonly format: 1;
  readonly version: number;
  readonly deal: Deal;
  readonly board: Board;
  readonly status: GameStatus;
  readonly score: Score;
  readonly done: readonly Step[];
  readonly undone: readonly PlayedMove[];
}

function toArray<T>(stack: Stack<T> | null): T[] {
  const items: T[] = [];
  for (let node = stack; node; node = node.rest) items.push(node.top);
  return items.reverse();
}

function toStack<T>(items: readonly T[]): Stack<T> | null {
  return items.reduce<Stack<T> | null>(push, null);
}

export const toSnapshot = (state: GameState): StateSnapshot => ({
  format: 1,
  version: state.version,
  deal: state.deal,
  board: state.board,
  status: state.status,
  score: state.score,
  done: toArray(state.done),
  undone: toArray(state.undone),
});

export function fromSnapshot(snapshot: StateSnapshot): GameState {
  if (snapshot.format !== 1) throw new Error(`unknown snapshot format ${snapshot.format}`);
  return {
    version: snapshot.version,
    deal: snapshot.deal,
    board: snapshot.board,
    status: snapshot.status,
    score: snapshot.score,
    done: toStack(snapshot.done),
    undone: toStack(snapshot.undone),
  };
}
