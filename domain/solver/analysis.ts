import type { Board } from '../board.js';
import type { GameEvent } from '../events.js';
import { evolve, type GameState, type Stack, type Step } from '../game.js';
import type { PlayedMove } from '../moves.js';
import { solveBoard } from './solve.js';

/** What a finished game could have been, with every card known: CONTRACT section 6. */
export interface Analysis {
  readonly verdict: 'winnable' | 'lost' | 'unknown';
  /** A winning line from the deal when the deal is winnable, else null. */
  readonly line: PlayedMove[] | null;
  /**
   * The last version whose position could still be won: null if none, `unknown` when some later
   * position could not be decided within the budget (the answer would be a guess).
   */
  readonly lastWinnableVersion: number | null | 'unknown';
}

export interface AnalysisBudget {
  /** Solver nodes for the deal, and for each later position. */
  readonly dealNodes: number;
  readonly positionNodes: number;
  readonly now?: () => number;
  readonly deadline?: number;
}

export const ANALYSIS_BUDGET: AnalysisBudget = { dealNodes: 2_000_000, positionNodes: 300_000 };

/** A position's verdict: won with a line from there, lost, or undecided within the budget. */
type Verdict =
  | { readonly result: 'won'; readonly line: PlayedMove[] }
  | { readonly result: 'lost' | 'unknown' };

/** A position of the game's history: the moves in effect, which also name it (null is the deal). */
type Node = Stack<Step> | null;

const movesOf = (node: Node): PlayedMove[] => {
  const moves: PlayedMove[] = [];
  for (let at = node; at !== null; at = at.rest) moves.push(at.top.move);
  return moves.reverse();
};

/**
 * Analyses a finished game from its log. A position that can be won makes every position before it
 * on its line winnable too, and a lost one makes every position after it lost, so most positions
 * follow from a few solves: first the deal, then a bisection of the line of moves in effect at the
 * end, then whatever positions abandoned by undo are still open, latest first.
 */
export function analyse(events: readonly GameEvent[], budget: AnalysisBudget = ANALYSIS_BUDGET): Analysis {
  const states: GameState[] = [];
  let state: GameState | null = null;
  for (const event of events) {
    state = evolve(state, event);
    states.push(state);
  }
  const last = states.at(-1);
  if (last === undefined) throw new Error('an empty log has no game');
  if (last.status === 'playing') throw new Error('only a finished game is analysed');
  const rules = last.deal.rules;
  if (last.status === 'won') {
    return { verdict: 'winnable', line: movesOf(last.done), lastWinnableVersion: last.version };
  }

  const { now, deadline } = budget;
  const clock = now !== undefined && deadline !== undefined ? { now, deadline } : {};
  const outOfTime = () => now !== undefined && deadline !== undefined && now() >= deadline;
  const verdicts = new Map<Node, Verdict>();
  const boards = new Map<Node, Board>(states.map((s) => [s.done, s.board]));
  const byBoard = new Map<string, Verdict>();
  // Each position is solved once (positions met again after undo and redo are the same board).
  const solveAt = (node: Node, nodes: number): Verdict => {
    const known = verdicts.get(node);
    if (known !== undefined) return known;
    const board = boards.get(node)!;
    const key = JSON.stringify(board);
    let verdict = byBoard.get(key);
    if (verdict === undefined) {
      if (outOfTime()) return { result: 'unknown' };
      const solved = solveBoard(board, rules, { nodes, ...clock });
      verdict = solved.result === 'won' ? { result: 'won', line: solved.line } : { result: solved.result };
      byBoard.set(key, verdict);
    }
    verdicts.set(node, verdict);
    return verdict;
  };
  // Every position on a node's line, from the node back to the deal.
  const lineOf = (node: Node): Node[] => {
    const line: Node[] = [];
    for (let at = node; at !== null; at = at.rest) line.push(at);
    line.push(null);
    return line;
  };
  /** What the verdicts known say of a position: won if a later one on its line is, lost if an earlier one is. */
  const wonNodes = new Set<Node>();
  const markWon = (node: Node) => {
    for (const at of lineOf(node)) {
      if (wonNodes.has(at)) break;
      wonNodes.add(at);
    }
  };
  const statusOf = (node: Node): 'won' | 'lost' | 'unknown' => {
    if (wonNodes.has(node)) return 'won';
    for (const at of lineOf(node)) if (verdicts.get(at)?.result === 'lost') return 'lost';
    return 'unknown';
  };

  const deal = solveAt(null, budget.dealNodes);
  if (deal.result === 'lost') return { verdict: 'lost', line: null, lastWinnableVersion: null };
  if (deal.result === 'won') markWon(null);

  // Bisect the final line: winnable up to some position, lost after it.
  const finalLine = lineOf(last.done).reverse();
  let low = deal.result === 'won' ? 0 : -1;
  let high = finalLine.length;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    const verdict = solveAt(finalLine[middle]!, budget.positionNodes);
    if (verdict.result === 'won') {
      markWon(finalLine[middle]!);
      low = middle;
    } else if (verdict.result === 'lost') high = middle;
    else break;
  }

  // The latest version whose position can be won, if every version after it is lost.
  let lastWinnable: number | null | 'unknown' = null;
  for (let version = states.length - 1; version >= 0; version--) {
    const node = states[version]!.done;
    let status = statusOf(node);
    if (status === 'unknown') {
      const verdict = solveAt(node, budget.positionNodes);
      if (verdict.result === 'won') markWon(node);
      status = verdict.result === 'won' ? 'won' : verdict.result;
    }
    if (status === 'won') {
      lastWinnable = version;
      break;
    }
    if (status === 'unknown') {
      lastWinnable = 'unknown';
      break;
    }
  }

  // A winning line from the deal: the solver's, or the moves to a position proved winnable and its line.
  if (deal.result === 'won')
    return { verdict: 'winnable', line: deal.line, lastWinnableVersion: lastWinnable };
  for (const node of wonNodes) {
    const verdict = verdicts.get(node);
    if (verdict?.result === 'won') {
      return {
        verdict: 'winnable',
        line: [...movesOf(node), ...verdict.line],
        lastWinnableVersion: lastWinnable,
      };
    }
  }
  return {
    verdict: 'unknown',
    line: null,
    lastWinnableVersion: lastWinnable === null ? 'unknown' : lastWinnable,
  };
}
