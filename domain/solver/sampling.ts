import { applyMove, type Board } from '../board.js';
import type { PlayedMove } from '../moves.js';
import type { Rules } from '../rules.js';
import { mulberry32 } from '../shuffle.js';
import { type Choice, kindOf, moveKey, preference } from './choices.js';
import {
  orders,
  permutations,
  samplingSeed,
  shuffled,
  stockKnown,
  unseenCards,
  withUnseen,
} from './knowledge.js';
import { solveBoard } from './solve.js';

/**
 * Choosing by sampling what the player cannot see (hindsight optimisation): deal the unseen cards
 * into their places at random, many times, each time consistently with everything shown; solve each
 * such deal with every card known; prefer the choice that wins the most of them. Each solve knows the
 * cards of its own deal, so this overrates moves that only pay if one guesses right, but it weighs
 * every choice on the same deals, and it is what the strongest published players of Klondike do.
 *
 * The work is kept small three ways. Deals lost (or too hard for the budget) from the position as it
 * is cannot tell the choices apart, and are set aside after one solve. The solver's own winning line
 * on a deal shows one choice that wins it, for free, and choices are weighed in the order of those
 * votes. And a choice stops being weighed once it has lost as many deals as the best one so far.
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
  /** Experiments (0 or 1). */
  readonly blindFirstPass?: number;
  readonly effort?: number;
  readonly unknownLoses?: number;
  readonly now?: () => number;
  readonly deadline?: number;
}

export interface Sampled {
  /** The choice that won the most deals; null when no deal was won from the position. */
  readonly choice: Choice | null;
  /** Deals the choice won, of `won`: the deals won from the position. */
  readonly wins: number;
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

/** Deals the rest of the stock onto the waste, playing nothing, when `blind`. */
function blindPass(board: Board, rules: Rules, blind: boolean): Board {
  let current = board;
  while (blind && current.stock.length > 0) current = applyMove(current, rules, { type: 'draw' }).board;
  return current;
}

const play = (board: Board, rules: Rules, moves: readonly PlayedMove[]): Board =>
  moves.reduce((current, move) => applyMove(current, rules, move).board, board);

/**
 * The choice a winning line makes first: its rearrangements are played on the player's board (they
 * show nothing, so they are the same moves there) up to its first move that cannot be taken back.
 */
function firstChoice(board: Board, rules: Rules, line: readonly PlayedMove[], index: Map<string, number>) {
  // Choices are told apart by their move alone (see \`choices\`).
  let current = board;
  for (const move of line) {
    if (kindOf(current, rules, move) !== null) return index.get(moveKey(move));
    current = applyMove(current, rules, move).board;
  }
  return undefined;
}

/** Weighs `options` (choices from `board`, the player's board) on sampled deals. */
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
    const solved = solveBoard(deal, rules, {
      nodes: Math.max(1, Math.min(limit, budget.totalNodes - nodes)),
      ...(now !== undefined && deadline !== undefined ? { now, deadline } : {}),
    });
    nodes += solved.stats.nodes;
    return solved;
  };

  const index = new Map(options.map((choice, i) => [moveKey(choice.move), i]));
  const { deals: candidates, exhaustive } = deals(board, budget.samples);
  // Deals won from the position, each with the choice its winning line made first (if one of ours).
  const won: { deal: Board; votedFor: number | undefined; limit: number }[] = [];
  const votes = new Array<number>(options.length).fill(0);
  let lost = 0;
  // Every deal gets a short look; while too few are won, the undecided ones get longer looks, so
  // that the budget goes to the deals that can tell the choices apart.
  let open = candidates.map((deal) => ({ deal, looked: false }));
  let solved = 0;
  for (let limit = budget.firstNodes; open.length > 0 && limit <= budget.dealNodes; limit *= 4) {
    const undecided: typeof open = [];
    for (const entry of open) {
      if (won.length >= budget.wonSamples || nodes >= budget.positionNodes || outOfTime()) break;
      if (!entry.looked) solved++;
      const result = solve(entry.deal, limit);
      if (result.result === 'lost') lost++;
      if (result.result === 'unknown') undecided.push({ deal: entry.deal, looked: true });
      if (result.result !== 'won') continue;
      const votedFor = firstChoice(board, rules, result.line, index);
      if (votedFor !== undefined) votes[votedFor]!++;
      won.push({ deal: entry.deal, votedFor, limit });
    }
    open = undecided;
  }
  const summary = {
    won: won.length,
    samples: solved,
    lost,
    exhaustive: exhaustive && solved === candidates.length,
  };
  if (won.length === 0) return { choice: null, wins: 0, ...summary, nodes };

  // In the first pass the stock is unseen: a choice is weighed as if nothing more were played from
  // the waste until the stock is dealt through (what the player may do blind), then solved.
  const blind = budget.blindFirstPass === 1 && !stockKnown(board) && board.stock.length > 0;
  const order = options
    .map((_, i) => i)
    .sort((a, b) => preference(options[a]!) - preference(options[b]!) || votes[b]! - votes[a]!);
  // A choice is better for losing fewer deals; among those that lose as few, for leaving the solver
  // less to search (the log of its nodes, summed over the deals): more ways to win, more slack.
  let best = -1;
  let bestLosses = Number.POSITIVE_INFINITY;
  let bestEffort = Number.POSITIVE_INFINITY;
  const useEffort = budget.effort === 1;
  for (const i of order) {
    if ((bestLosses === 0 && !useEffort) || outOfTime()) break;
    const choice = options[i]!;
    let losses = 0;
    let effort = 0;
    let complete = true;
    for (const { deal, votedFor, limit } of won) {
      if (votedFor === i && !blind && !useEffort) continue;
      if (outOfTime()) {
        complete = false;
        break;
      }
      const after = blindPass(play(deal, rules, [...choice.path, choice.move]), rules, blind);
      const result = solve(after, CHOICE_FACTOR * limit);
      if (result.result === 'lost' || (result.result === 'unknown' && budget.unknownLoses === 1)) losses++;
      effort += Math.log2(1 + result.stats.nodes);
      // A choice replaces the best only by losing fewer deals, or as few with less effort.
      if (losses > bestLosses || (losses === bestLosses && !useEffort)) break;
    }
    if (complete && (losses < bestLosses || (useEffort && losses === bestLosses && effort < bestEffort))) {
      best = i;
      bestLosses = losses;
      bestEffort = effort;
    }
  }
  if (best < 0) return { choice: null, wins: 0, ...summary, nodes };
  return { choice: options[best]!, wins: won.length - bestLosses, ...summary, nodes };
}
