import type { Board } from '../board.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { computeKey } from './key.js';
import { finish, playerMoves } from './line.js';
import { MoveList, type MoveOrder } from './move-list.js';
import { type Before, play, remember, takeBack } from './play.js';
import { NO_CARD, Position } from './position.js';
import { SeenPositions } from './seen.js';
import type { SolveBudget, SolveResult } from './solve.js';

/** The clock is read every this many moves. */
const CLOCK_EVERY = 1024;

/** Whether the game is won, or plays itself out from here (a won game does too). */
const over = (position: Position): boolean => position.finishesByItself();

/** Of every ten slices of `CLOCK_EVERY` moves, the second search's (see `depthFirst`). */
const SLICES = 10;
const SECOND_SEARCH_SLICE = SLICES - 1;

/**
 * Two depth-first searches from `board` over the moves `MoveList` lists, each skipping the positions
 * it has seen (`SeenPositions`), in turns within one budget (`nodes` required): of every ten slices
 * of `CLOCK_EVERY` moves, nine go to the first, which tries the moves in `turnUpsFirst` order, and the
 * tenth to the second, in `talonFirst` order. Either running out of moves proves the board lost
 * (an order leaves no move out); either finding a win wins. `log2Capacity` is a table's first size.
 *
 * The two orders are each other's cure: a search's time is heavy-tailed, and a deal that one order
 * wins in a few hundred moves the other may not win in millions (a talon card needed early, or a
 * card turned up). A lost deal takes one search's whole tree, and the first keeps nine tenths of the
 * budget for it; a search of at most nine slices is the first search alone. Without the prunings
 * (`prune` false, for tests), or without `secondSearch`, there is one search.
 */
export function depthFirst(
  board: Board,
  rules: Rules,
  budget: SolveBudget,
  prune: boolean,
  secondSearch: boolean,
  log2Capacity: number,
): SolveResult {
  const maxNodes = budget.nodes!;
  const { now, deadline } = budget;
  const searches = [new Search(board, rules, prune, log2Capacity, 'turnUpsFirst')];
  try {
    let nodes = 0;
    const stats = () => ({ nodes, positions: searches.reduce((sum, s) => sum + s.seen.size, 0) });
    for (let slice = 0; ; slice = (slice + 1) % SLICES) {
      const second = secondSearch && prune && slice === SECOND_SEARCH_SLICE;
      if (second && searches.length === 1)
        searches.push(new Search(board, rules, prune, log2Capacity, 'talonFirst'));
      const search = searches[second ? 1 : 0]!;
      const before = search.nodes;
      const found = search.run(Math.min(CLOCK_EVERY, maxNodes - nodes));
      nodes += search.nodes - before;
      if (found === 'lost') return { result: 'lost', stats: stats() };
      if (found !== undefined) return { result: 'won', line: found, stats: stats() };
      if (nodes >= maxNodes || (now !== undefined && deadline !== undefined && now() >= deadline))
        return { result: 'unknown', stats: stats() };
    }
  } finally {
    for (const search of searches) search.seen.release();
  }
}

/** One depth-first search, run in slices (`run`); its state is kept between them. */
class Search {
  readonly seen: SeenPositions;
  private readonly position: Position;
  private readonly moves: MoveList;
  nodes = 0;
  /** A win found before the first move (the board plays itself out). */
  private readonly wonAlready: boolean;
  // The stack, flat: the moves listed at depth d are list[start[d] .. start[d] + count[d]).
  private list = new Int32Array(1 << 14);
  private readonly start: number[] = [0];
  private readonly count: number[] = [];
  private readonly next: number[] = [0];
  private readonly played: number[] = [];
  private readonly turnedUp: number[] = [];
  private readonly before: Before[] = [];
  private d = 0;

  constructor(board: Board, rules: Rules, prune: boolean, log2Capacity: number, order: MoveOrder) {
    this.seen = new SeenPositions(rules.draw, prune, log2Capacity);
    this.position = new Position(board, rules, prune);
    this.moves = new MoveList(order);
    this.wonAlready = over(this.position);
    if (this.wonAlready) return;
    computeKey(this.position);
    this.seen.isNew(this.position);
    this.count.push(this.moves.generate(this.position, this.list, 0));
  }

  /**
   * Tries up to `slice` more moves: the winning line, `'lost'` when every position was searched, or
   * undefined when the slice ran out first.
   */
  run(slice: number): PlayedMove[] | 'lost' | undefined {
    const { position, seen, moves, start, count, next, played, turnedUp, before } = this;
    if (this.wonAlready) return finish(position);
    const until = this.nodes + slice;
    let d = this.d;
    try {
      for (;;) {
        if (next[d]! < count[d]!) {
          if (this.nodes >= until) return undefined;
          const m = this.list[start[d]! + next[d]!]!;
          next[d]!++;
          played[d] = m;
          const saved = remember(position, before[d]);
          before[d] = saved;
          turnedUp[d] = play(position, m);
          this.nodes++;
          if (over(position)) {
            const line: PlayedMove[] = [];
            for (let i = 0; i <= d; i++)
              line.push(
                ...playerMoves(position.draw, played[i]!, before[i]!.wasteSize, before[i]!.talonSize),
              );
            line.push(...finish(position));
            return line;
          }
          if (!seen.isNew(position)) {
            takeBack(position, m, turnedUp[d]!, saved);
            continue;
          }
          d++;
          start[d] = start[d - 1]! + count[d - 1]!;
          if (start[d]! + 1024 > this.list.length) {
            const bigger = new Int32Array(this.list.length * 2);
            bigger.set(this.list);
            this.list = bigger;
          }
          // Commuting moves are left out only where the other order was listed (see `commuting.ts`):
          // not after a safe move played alone, nor after a move made to meet an obligation.
          const previous = count[d - 1]! > 1 && before[d - 1]!.takenBack === NO_CARD ? m : -1;
          count[d] = moves.generate(position, this.list, start[d]!, previous, seen.coveredStops(position));
          next[d] = 0;
        } else {
          if (d === 0) return 'lost';
          d--;
          takeBack(position, played[d]!, turnedUp[d]!, before[d]!);
        }
      }
    } finally {
      this.d = d;
    }
  }
}
