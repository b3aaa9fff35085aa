import type { Board } from '../board.js';
import type { GameEvent } from '../events.js';
import { evolve, type GameState, type Stack, type Step } from '../game.js';
import { type PlayedMove, toPlayedMove } from '../moves.js';
import { solveBoard } from './solve.js';

/** What a finished game could have been, with every card known: docs/api.md. */
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
  /** Solver nodes for the deal. */
  readonly dealNodes: number;
  /**
   * Solver nodes for each later position at first; while the last winnable version is still open,
   * positions left undecided are solved again with four times as many, up to `maxPositionNodes`.
   */
  readonly positionNodes: number;
  readonly maxPositionNodes: number;
  readonly now?: () => number;
  readonly deadline?: number;
}

export const ANALYSIS_BUDGET: AnalysisBudget = {
  dealNodes: 2_000_000,
  positionNodes: 50_000,
  maxPositionNodes: 3_200_000,
};

/** A position's verdict: won with a line from there, lost, or undecided within the budget. */
type Verdict =
  | { readonly result: 'won'; readonly line: PlayedMove[] }
  | { readonly result: 'lost' | 'unknown' };

/** A position of the game's history: the moves in effect, which also name it (null is the deal). */
type Node = Stack<Step> | null;

const movesOf = (node: Node): PlayedMove[] => {
  const moves: PlayedMove[] = [];
  for (let at = node; at !== null; at = at.rest) moves.push(toPlayedMove(at.top.move));
  return moves.reverse();
};

/** Every position on a node's line, from the node back to the deal. */
const lineOf = (node: Node): Node[] => {
  const line: Node[] = [];
  for (let at = node; at !== null; at = at.rest) line.push(at);
  line.push(null);
  return line;
};

/**
 * Analyses a finished game from its log. A position that can be won makes every position before it
 * on its line winnable too, and a lost one makes every position after it lost, so most positions
 * follow from a few solves: first the deal, then a bisection of the line of moves in effect at the
 * end, then whatever positions (abandoned by undo) are still open, latest first.
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
  if (last.status === 'won') {
    return { verdict: 'winnable', line: movesOf(last.done), lastWinnableVersion: last.version };
  }
  const rules = last.deal.rules;
  const { now, deadline } = budget;
  const clock = now !== undefined && deadline !== undefined ? { now, deadline } : {};
  const outOfTime = () => now !== undefined && deadline !== undefined && now() >= deadline;

  // Each board is solved once per budget (positions met again after undo and redo are the same).
  const boards = new Map<Node, string>(states.map((s) => [s.done, JSON.stringify(s.board)]));
  const boardOf = new Map<Node, Board>(states.map((s) => [s.done, s.board]));
  const solved = new Map<string, { verdict: Verdict; nodes: number }>();
  const verdictOf = (node: Node): Verdict => solved.get(boards.get(node)!)?.verdict ?? { result: 'unknown' };
  const solveAt = (node: Node, nodes: number): Verdict => {
    const key = boards.get(node)!;
    const known = solved.get(key);
    if (known !== undefined && (known.verdict.result !== 'unknown' || known.nodes >= nodes))
      return known.verdict;
    if (outOfTime()) return { result: 'unknown' };
    const result = solveBoard(boardOf.get(node)!, rules, { nodes, ...clock });
    const verdict: Verdict =
      result.result === 'won' ? { result: 'won', line: result.line } : { result: result.result };
    solved.set(key, { verdict, nodes });
    return verdict;
  };

  const wonNodes = new Set<Node>();
  const markWon = (node: Node) => {
    for (const at of lineOf(node)) {
      if (wonNodes.has(at)) break;
      wonNodes.add(at);
    }
  };
  /** What is known of a position: won if a later one on its line is, lost if an earlier one is. */
  const statusOf = (node: Node): Verdict['result'] => {
    if (wonNodes.has(node)) return 'won';
    for (const at of lineOf(node)) if (verdictOf(at).result === 'lost') return 'lost';
    return 'unknown';
  };

  const deal = solveAt(null, budget.dealNodes);
  if (deal.result === 'lost') return { verdict: 'lost', line: null, lastWinnableVersion: null };
  if (deal.result === 'won') markWon(null);

  const finalLine = lineOf(last.done).reverse();
  let lastWinnable: number | null | 'unknown' = 'unknown';
  for (let nodes = budget.positionNodes; ; nodes *= 4) {
    // Bisect the final line: winnable up to some position, lost after it.
    let low = -1;
    let high = finalLine.length;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      const status = statusOf(finalLine[middle]!);
      const verdict = status === 'unknown' ? solveAt(finalLine[middle]!, nodes).result : status;
      if (verdict === 'won') {
        markWon(finalLine[middle]!);
        low = middle;
      } else if (verdict === 'lost') high = middle;
      else break;
    }
    // The latest version whose position can be won, if every version after it is lost. The
    // resignation itself is no position to win from: the game takes no more moves.
    lastWinnable = null;
    for (let version = states.length - 2; version >= 0; version--) {
      const node = states[version]!.done;
      let status = statusOf(node);
      if (status === 'unknown') {
        status = solveAt(node, nodes).result;
        if (status === 'won') markWon(node);
      }
      if (status !== 'lost') {
        lastWinnable = status === 'won' ? version : 'unknown';
        break;
      }
    }
    if (lastWinnable !== 'unknown' || nodes * 4 > budget.maxPositionNodes || outOfTime()) break;
  }

  // Every version lost, the deal among them.
  if (lastWinnable === null) return { verdict: 'lost', line: null, lastWinnableVersion: null };
  // A winning line from the deal: the solver's, or the moves to a position proved winnable and its line.
  if (deal.result === 'won')
    return { verdict: 'winnable', line: deal.line, lastWinnableVersion: lastWinnable };
  for (const node of wonNodes) {
    const verdict = verdictOf(node);
    if (verdict.result === 'won') {
      return {
        verdict: 'winnable',
        line: [...movesOf(node), ...verdict.line],
        lastWinnableVersion: lastWinnable,
      };
    }
  }
  // Nothing proved winnable: the deal is undecided (had it been lost, every position would be).
  return {
    verdict: 'unknown',
    line: null,
    lastWinnableVersion: lastWinnable === null ? 'unknown' : lastWinnable,
  };
}
