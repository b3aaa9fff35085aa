import type { Board } from '../board.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { computeKey } from './key.js';
import { finish, playerMoves } from './line.js';
import { MoveList } from './move-list.js';
import { type Before, play, remember, takeBack } from './play.js';
import { NO_CARD, Position } from './position.js';
import { SeenPositions } from './seen.js';
import type { SolveBudget, SolveResult } from './solve.js';

/** The clock is read every this many moves. */
const CLOCK_EVERY = 1024;

/** Whether the game is won, or plays itself out from here (a won game does too). */
const over = (position: Position): boolean => position.finishesByItself();

/**
 * One depth-first search from `board` over the moves `MoveList` lists, skipping positions already
 * seen (`SeenPositions`), within the budget (`nodes` required): running out of moves proves the
 * board lost. `log2Capacity` is the table's first size.
 */
export function depthFirst(
  board: Board,
  rules: Rules,
  budget: SolveBudget,
  prune: boolean,
  log2Capacity: number,
): SolveResult {
  const seen = new SeenPositions(rules.draw, prune, log2Capacity);
  try {
    return search(new Position(board, rules, prune), seen, budget);
  } finally {
    seen.release();
  }
}

function search(position: Position, seen: SeenPositions, budget: SolveBudget): SolveResult {
  const moves = new MoveList();
  const maxNodes = budget.nodes!;
  const { now, deadline } = budget;
  let nodes = 0;
  const stats = () => ({ nodes, positions: seen.size });
  if (over(position)) return { result: 'won', line: finish(position), stats: stats() };
  computeKey(position);
  seen.isNew(position);

  // The stack, flat: the moves listed at depth d are list[start[d] .. start[d] + count[d]).
  let list = new Int32Array(1 << 14);
  const start: number[] = [0];
  const count: number[] = [moves.generate(position, list, 0)];
  const next: number[] = [0];
  const played: number[] = [];
  const turnedUp: number[] = [];
  const before: Before[] = [];
  let d = 0;
  for (;;) {
    if (next[d]! < count[d]!) {
      const m = list[start[d]! + next[d]!]!;
      next[d]!++;
      played[d] = m;
      const saved = remember(position, before[d]);
      before[d] = saved;
      turnedUp[d] = play(position, m);
      nodes++;
      if (over(position)) {
        const line: PlayedMove[] = [];
        for (let i = 0; i <= d; i++)
          line.push(...playerMoves(position.draw, played[i]!, before[i]!.wasteSize, before[i]!.talonSize));
        line.push(...finish(position));
        return { result: 'won', line, stats: stats() };
      }
      if (nodes >= maxNodes) return { result: 'unknown', stats: stats() };
      if (now !== undefined && deadline !== undefined && nodes % CLOCK_EVERY === 0 && now() >= deadline) {
        return { result: 'unknown', stats: stats() };
      }
      if (!seen.isNew(position)) {
        takeBack(position, m, turnedUp[d]!, saved);
        continue;
      }
      d++;
      start[d] = start[d - 1]! + count[d - 1]!;
      if (start[d]! + 1024 > list.length) {
        const bigger = new Int32Array(list.length * 2);
        bigger.set(list);
        list = bigger;
      }
      // Commuting moves are left out only where the other order was listed (see `commuting.ts`):
      // not after a safe move played alone, nor after a move made to meet an obligation.
      const previous = count[d - 1]! > 1 && before[d - 1]!.takenBack === NO_CARD ? m : -1;
      count[d] = moves.generate(position, list, start[d]!, previous, seen.coveredStops(position));
      next[d] = 0;
    } else {
      if (d === 0) return { result: 'lost', stats: stats() };
      d--;
      takeBack(position, played[d]!, turnedUp[d]!, before[d]!);
    }
  }
}
