import type { Board } from './board.js';
import { type Deal, type GameState, type GameStatus, push, type Stack, type Step } from './game.js';
import type { InternalMove } from './moves.js';
import type { Score } from './score.js';

/**
 * A game state as plain JSON, for snapshots (a cache beside the log: it can be deleted and rebuilt
 * by folding the log). The undo and redo stacks, which grow with the game, are flat arrays of
 * numbers (oldest first): a long game's snapshot then parses in microseconds, not milliseconds.
 */
export interface StateSnapshot {
  readonly format: 2;
  readonly version: number;
  readonly deal: Deal;
  readonly board: Board;
  readonly status: GameStatus;
  readonly score: Score;
  /** Per step: the packed move (with what it drew and revealed), then the score before it. */
  readonly done: readonly number[];
  /** Packed moves. */
  readonly undone: readonly number[];
}

const KINDS = ['draw', 'recycle', 'move'] as const;

/** A move in 14 bits: kind (2), source pile (4), destination pile (4), count (4). */
function packMove(move: InternalMove): number {
  if (move.type !== 'move') return KINDS.indexOf(move.type);
  return 2 | (move.from << 2) | (move.to << 6) | (move.count << 10);
}

function unpackMove(code: number): InternalMove {
  const kind = KINDS[code & 3]!;
  if (kind !== 'move') return { type: kind };
  return { type: 'move', from: (code >> 2) & 15, to: (code >> 6) & 15, count: (code >> 10) & 15 };
}

function toArray<T>(stack: Stack<T> | null): T[] {
  const items: T[] = [];
  for (let node = stack; node; node = node.rest) items.push(node.top);
  return items.reverse();
}

export const toSnapshot = (state: GameState): StateSnapshot => ({
  format: 2,
  version: state.version,
  deal: state.deal,
  board: state.board,
  status: state.status,
  score: state.score,
  done: toArray(state.done).flatMap((step) => [
    packMove(step.move) | (step.drawn << 14) | (Number(step.revealed) << 16),
    step.scoreBefore.vegas,
    step.scoreBefore.standard,
  ]),
  undone: toArray(state.undone).map(packMove),
});

/** The state a snapshot holds; throws on a format it does not know (the caller then folds the log). */
export function fromSnapshot(snapshot: StateSnapshot): GameState {
  if (snapshot.format !== 2) throw new Error(`unknown snapshot format ${snapshot.format}`);
  let done: Stack<Step> | null = null;
  for (let i = 0; i < snapshot.done.length; i += 3) {
    const code = snapshot.done[i]!;
    done = push(done, {
      move: unpackMove(code & 0x3fff),
      drawn: (code >> 14) & 3,
      revealed: ((code >> 16) & 1) === 1,
      scoreBefore: { vegas: snapshot.done[i + 1]!, standard: snapshot.done[i + 2]! },
    });
  }
  return {
    version: snapshot.version,
    deal: snapshot.deal,
    board: snapshot.board,
    status: snapshot.status,
    score: snapshot.score,
    done,
    undone: snapshot.undone.map(unpackMove).reduce<Stack<InternalMove> | null>(push, null),
  };
}
