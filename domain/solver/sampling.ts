import { applyMove, type Board } from '../board.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { mulberry32 } from '../shuffle.js';
import { type Choice, choiceKey, lineChoice, preference } from './choices.js';
import { orders, permutations, samplingSeed, shuffled, unseenCards, withUnseen } from './knowledge.js';
import { type SolveOptions, solveBoard } from './solve.js';

/**
 * The hints' solves are one search each (`SolveOptions.secondSearch`): their weighing of choices was
 * measured that way, and with the second search too the hints won 32 of seeds 0..199 (three passes)
 * against 34, and one game went round.
 */
export const HINT_SOLVES: SolveOptions = { secondSearch: false };

/**
 * Weighing choices on deals sampled from what the player cannot see (determinization, or hindsight
 * optimisation): the unseen cards are dealt into their places at random, each time consistently with
 * everything shown, and each such deal is solved with every card known.
 *
 * What counts is the deals a choice is proved to lose: a deal won from the position and lost after
 * the choice. The solver's budget is small, so a deal it does not decide says nothing either way;
 * counting it as a loss was tried and favoured drawing, whose positions the solver had just searched,
 * over everything else. Among the choices that lose fewest, the one a player would try first wins
 * (`preference`: turning a card up before playing from the waste before drawing).
 *
 * In the first pass the stock is sampled with the face-down cards, like them. (Weighing each choice
 * as if the stock were then dealt through unplayed, so that no solve could plan around stock cards
 * the player has not seen, was tried: it won 13 of seeds 0..99 against 17 without it.)
 *
 * The work is kept small. Deals not won from the position as it is cannot tell the choices apart and
 * are set aside after one look; a deal not decided at first gets longer looks only while too few are
 * won. The solver's own winning line on a deal shows a choice it does not lose, for free. And a choice
 * stops being weighed as soon as it has lost as many deals as the best one so far.
 */
export interface SamplingBudget {
  /** Deals sampled at most. */
  readonly samples: number;
  /** Sampling stops once this many deals are won from the position. */
  readonly wonSamples: number;
  /**
   * Solver nodes for a deal's first look from the position. A deal not decided gets looks four
   * times longer in turn, up to `dealNodes`, while too few deals are won.
   */
  readonly firstNodes: number;
  readonly dealNodes: number;
  /** Solver nodes for everything together, and for the looks from the position among them. */
  readonly totalNodes: number;
  readonly positionNodes: number;
  readonly now?: () => number;
  readonly deadline?: number;
}

export interface Sampled {
  /** The choice that loses fewest of the deals won from the position; null when none was won. */
  readonly choice: Choice | null;
  /** Deals the choice was proved to lose, of `won`: the deals won from the position. */
  readonly losses: number;
  readonly won: number;
  /** Deals solved from the position, and how many of them were proved lost. */
  readonly samples: number;
  readonly lost: number;
  /** Whether the samples were every order of the unseen cards: then `lost === samples` is a proof. */
  readonly exhaustive: boolean;
  /** Solver nodes used. */
  readonly nodes: number;
}

/** A choice on a deal gets this many times the look that won the deal from the position. */
const CHOICE_FACTOR = 2;

/** The deals to try: every order of the unseen cards when there are few, else random ones. */
function deals(board: Board, count: number): { deals: Board[]; exhaustive: boolean } {
  const unseen = unseenCards(board);
  if (orders(unseen.length, count) <= count) {
    return { deals: permutations(unseen).map((cards) => withUnseen(board, cards)), exhaustive: true };
  }
  const next = mulberry32(samplingSeed(board));
  return {
    deals: Array.from({ length: count }, () => withUnseen(board, shuffled(unseen, next))),
    exhaustive: false,
  };
}

/** The board after `moves`. */
export const play = (board: Board, rules: Rules, moves: readonly PlayedMove[]): Board =>
  moves.reduce((current, move) => applyMove(current, rules, move).board, board);

/**
 * Weighs `options` (choices from `board`, the player's board) on sampled deals, with the first
 * choices of the solver's winning lines that `options` lacks (rearrangements longer than `choices`
 * follows lead to them): so a choice is found wherever a sampled deal is won, even with none given.
 */
export function sample(
  board: Board,
  rules: Rules,
  options: readonly Choice[],
  budget: SamplingBudget,
): Sampled {
  const { now, deadline } = budget;
  let nodes = 0;
  const outOfTime = () =>
    nodes >= budget.totalNodes || (now !== undefined && deadline !== undefined && now() >= deadline);
  const solve = (deal: Board, limit: number) => {
    const solved = solveBoard(
      deal,
      rules,
      {
        nodes: Math.max(1, Math.min(limit, budget.totalNodes - nodes)),
        ...(now !== undefined && deadline !== undefined ? { now, deadline } : {}),
      },
      HINT_SOLVES,
    );
    nodes += solved.stats.nodes;
    return solved;
  };

  const all = options.slice();
  const index = new Map(all.map((choice, i) => [choiceKey(choice), i]));
  const { deals: candidates, exhaustive } = deals(board, budget.samples);
  // Deals won from the position, each with the look that won it and the choice its line made first.
  const won: { deal: Board; votedFor: number | undefined; limit: number }[] = [];
  const votes = new Array<number>(all.length).fill(0);
  let lost = 0;
  let open = candidates;
  let solved = 0;
  for (let limit = budget.firstNodes; open.length > 0 && limit <= budget.dealNodes; limit *= 4) {
    const undecided: Board[] = [];
    for (const deal of open) {
      if (won.length >= budget.wonSamples || nodes >= budget.positionNodes || outOfTime()) break;
      if (limit === budget.firstNodes) solved++;
      const result = solve(deal, limit);
      if (result.result === 'lost') lost++;
      if (result.result === 'unknown') undecided.push(deal);
      if (result.result !== 'won') continue;
      const first = lineChoice(board, rules, result.line);
      let votedFor: number | undefined;
      if (first !== undefined) {
        const key = choiceKey(first);
        votedFor = index.get(key);
        if (votedFor === undefined) {
          votedFor = all.push(first) - 1;
          index.set(key, votedFor);
          votes.push(0);
        }
        votes[votedFor]!++;
      }
      won.push({ deal, votedFor, limit });
    }
    open = undecided;
  }
  const summary = {
    won: won.length,
    samples: solved,
    lost,
    exhaustive: exhaustive && solved === candidates.length,
  };
  if (won.length === 0) return { choice: null, losses: 0, ...summary, nodes };

  const order = all
    .map((_, i) => i)
    .sort((a, b) => preference(all[a]!) - preference(all[b]!) || votes[b]! - votes[a]!);
  let best = -1;
  let bestLosses = Number.POSITIVE_INFINITY;
  for (const i of order) {
    if (bestLosses === 0 || outOfTime()) break;
    const choice = all[i]!;
    let losses = 0;
    let complete = true;
    for (const { deal, votedFor, limit } of won) {
      // The solver's own line shows the choice does not lose this deal.
      if (votedFor === i) continue;
      if (outOfTime()) {
        complete = false;
        break;
      }
      const after = play(deal, rules, [...choice.path, choice.move]);
      if (solve(after, CHOICE_FACTOR * limit).result === 'lost') losses++;
      // A choice replaces the best only by losing fewer deals.
      if (losses >= bestLosses) break;
    }
    if (complete && losses < bestLosses) {
      best = i;
      bestLosses = losses;
    }
  }
  if (best < 0) return { choice: null, losses: 0, ...summary, nodes };
  return { choice: all[best]!, losses: bestLosses, ...summary, nodes };
}
