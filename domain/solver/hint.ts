import { type Board, cardsOn, listMoves } from '../board.js';
import { formatCard } from '../cards.js';
import { canUndo, type GameState } from '../game.js';
import type { PlayedMove } from '../moves.js';
import { isFoundation, pileIndex } from '../piles.js';
import type { Rules } from '../rules.js';
import { safeAutoplay } from './autoplay.js';
import {
  type Choice,
  type ChoiceKind,
  choiceKey,
  choices,
  firstMove,
  lineChoice,
  preference,
  talonKnown,
} from './choices.js';
import { playerBoard, unseenCards } from './knowledge.js';
import { HINT_SOLVES, play, type SamplingBudget, sample } from './sampling.js';
import { type SolveBudget, solveBoard } from './solve.js';

export interface Hint {
  readonly move: PlayedMove | null;
  readonly reason: string;
}

export interface HintBudget extends SamplingBudget {
  /** Solver nodes when every card is known: one solve decides. */
  readonly knownNodes: number;
}

/**
 * The work one hint may do, in solver nodes (about 1,900 a millisecond on one core): a budget in
 * nodes, not time, so the same view always gets the same hint on any machine. A caller with a clock
 * adds a deadline as a safety net only. 48 sampled deals, 20 of them to win, rather than 24 and 10,
 * won 182 of seeds 0..999 at draw 3, three passes, against 167, and 222 of seeds 0..499 with
 * unlimited passes against 211 (without the first pass dealt through), hints still within their
 * goal (p99 under 600 ms and 303 ms); twice the node totals as well won no more (29 of seeds
 * 1000..1199 at three passes, against 31). docs/solver.md has the runs.
 */
export const HINT_BUDGET: HintBudget = {
  samples: 48,
  wonSamples: 20,
  firstNodes: 5_000,
  dealNodes: 320_000,
  positionNodes: 250_000,
  totalNodes: 500_000,
  knownNodes: 400_000,
};

function describe(board: Board, move: PlayedMove): string {
  if (move.type === 'draw') return 'Draw';
  if (move.type === 'recycle') return 'Turn the waste over';
  const source = cardsOn(board, pileIndex(move.from));
  const card = formatCard(source[source.length - move.count]!);
  return `Move ${move.count > 1 ? `${move.count} cards from ${card}` : card} from ${move.from} to ${move.to}`;
}

const WHAT: Record<ChoiceKind, string> = {
  home: 'gets a card to its foundation',
  reveal: 'turns up a face-down card',
  column: 'empties a column',
  waste: "plays the waste's top card",
  talon: 'plays a card from the stock',
  draw: 'deals from the stock',
  recycle: 'starts another pass',
};

/**
 * Why a choice, in words that name no card the view does not show: a talon choice says where its
 * card goes and how far off it is, not which card it is (the stock's order is not shown).
 */
function purpose(choice: Choice): string {
  if (choice.kind === 'talon' && choice.move.type === 'move') {
    const steps = choice.path.length;
    return `it brings a card of the stock to the top of the waste (${steps} move${steps > 1 ? 's' : ''}), to play it to ${choice.move.to}`;
  }
  return choice.path.length === 0
    ? `it ${WHAT[choice.kind]}`
    : `it makes way for a move that ${WHAT[choice.kind]}, ${choice.path.length + 1} moves on`;
}

const undecided = ({ samples, won, lost }: { samples: number; won: number; lost: number }): string =>
  samples - won - lost > 0 ? ` (${samples - won - lost} undecided)` : '';

const noWin = (state: GameState, why: string): Hint => ({
  move: null,
  reason: canUndo(state) ? `${why}: only undo can help.` : `${why}: the game cannot be won.`,
});

/**
 * A good next move from what the player has seen (the hint reads no face-down card and, in the first
 * pass, not the stock), or none and why. In order: a move home that can never cost anything; with
 * every card known, the first move of a line the solver proves wins; the only real choice, if there
 * is one (see `choices`); else the choice that loses fewest of the deals sampled from what the player
 * has seen (see `sample`), each solved within `budget`. If none of those deals could be won, the
 * choice a player would try first. When every card is known, or so few are unseen that every way
 * they may lie was tried, and no line wins, the hint says the game is lost from here, and whether
 * only undo can help.
 */
export function hint(state: GameState, budget: HintBudget = HINT_BUDGET): Hint {
  if (state.status !== 'playing') return { move: null, reason: `The game is ${state.status}.` };
  const rules = state.deal.rules;
  const board = playerBoard(state.board);
  const { now, deadline } = budget;
  const clock = now !== undefined && deadline !== undefined ? { now, deadline } : {};
  // With every card known the solver's verdict comes first: a safe move is said to start a line
  // that wins (a client offers to finish the game on that word), and a lost game is said lost.
  const solved =
    unseenCards(board).length === 0
      ? solveBoard(board, rules, { nodes: budget.knownNodes, ...clock }, HINT_SOLVES)
      : undefined;
  if (solved?.result === 'lost') return noWin(state, 'Every card is known and no line wins from here');
  const safe = safeAutoplay({ ...state, board })[0];
  if (safe !== undefined) {
    const wins = solved?.result === 'won' ? '; every card is known, and this starts a line that wins' : '';
    return {
      move: safe,
      reason: `${describe(board, safe)}: it is never needed in the tableau again${wins}.`,
    };
  }

  if (scoutsForFree(board, rules)) {
    return {
      move: { type: 'draw' },
      reason:
        'Draw: with no limit on passes, seeing the whole stock before playing from it costs nothing, ' +
        'as the next pass deals the same cards the same way.',
    };
  }

  if (solved?.result === 'won') {
    const move = steadyMove(board, rules, solved.line, { nodes: budget.firstNodes * 4, ...clock });
    return {
      move,
      reason: `${describe(board, move)}: every card is known, and this starts a line that wins.`,
    };
  }

  const options = choices(board, rules);
  if (options.length === 0 && listMoves(board, rules).length === 0) return noWin(state, 'No move is left');
  if (options.length === 1 && !takesBack(options[0]!) && !sendsHomeOnItsWay(options[0]!)) {
    const [only] = options as [Choice];
    const move = firstMove(only);
    return {
      move,
      reason: `${describe(board, move)}: it is the only way forward; ${purpose(only)}.`,
    };
  }

  const sampled = sample(board, rules, options, budget);
  if (sampled.choice !== null) {
    const move = firstMove(sampled.choice);
    const losses = sampled.losses === 0 ? 'none' : `${sampled.losses}`;
    return {
      move,
      reason:
        `${describe(board, move)}: ${purpose(sampled.choice)}. Of ${sampled.samples} ways the unseen cards ` +
        `may lie, ${sampled.won} can be won from here${undecided(sampled)}, and this move loses ${losses} of them.`,
    };
  }
  if (sampled.exhaustive && sampled.lost === sampled.samples) {
    return noWin(state, 'Whatever the face-down cards are, no line wins from here');
  }
  if (options.length === 0) return noWin(state, 'Nothing is left but rearranging the face-up cards');
  // Nothing to go on: the move a player would try first, all else equal; but none that takes a card
  // back from its foundation anywhere on its way, which a later hint would send home again, round and
  // round (a way that first moves a run to another column, to take the card back after, would be
  // followed by its mirror image from that column, back and forth).
  const doubt =
    sampled.won === 0
      ? `none of ${sampled.samples} ways the unseen cards may lie could be won in the time given`
      : 'the time ran out before the choices could be weighed';
  const guess = options
    .filter((choice) => !takesBack(choice))
    .sort((a, b) => preference(a) - preference(b))[0];
  if (guess === undefined) {
    const undo = canUndo(state) ? ': undo to try another line.' : '.';
    return {
      move: null,
      reason: `Nothing is left but taking cards back from the foundations, and ${doubt}${undo}`,
    };
  }
  const move = firstMove(guess);
  return { move, reason: `${describe(board, move)}: ${purpose(guess)}; ${doubt}.` };
}

/**
 * With every card known, a move of a winning `line`: that of the first choice, in the order a player
 * would try them (`preference`, and a card home before one elsewhere), proved to win within
 * `budget`, else that of the line's own first choice, by the shortest rearrangement to it. The
 * line's first move alone is not enough: the line found from the next position may start by taking
 * it back (a king home from an empty column, and back, for ever). The choices and their order
 * change little along the way, so the hints keep to one choice until it is made.
 */
function steadyMove(
  board: Board,
  rules: Rules,
  line: readonly PlayedMove[],
  budget: SolveBudget,
): PlayedMove {
  const own = lineChoice(board, rules, line);
  if (own === undefined) return line[0]!;
  const key = choiceKey(own);
  const home = (choice: Choice) =>
    choice.move.type === 'move' && isFoundation(pileIndex(choice.move.to)) ? 0 : 1;
  const options = choices(board, rules).sort((a, b) => preference(a) - preference(b) || home(a) - home(b));
  for (const choice of options) {
    if (choiceKey(choice) === key) return firstMove(choice);
    const after = play(board, rules, [...choice.path, choice.move]);
    if (solveBoard(after, rules, budget, HINT_SOLVES).result === 'won') return firstMove(choice);
  }
  return firstMove(own);
}

/**
 * Whether drawing on is free, and shows the unseen stock: with unlimited passes, in the first pass,
 * while the waste's size is a whole number of draws. Then every waste the player could reach in
 * this pass comes again in the next (a recycle turns the same cards over, and the next pass deals
 * them in the same groups from the start), with the tableau as it is: whatever could be played now
 * can be played then, with the whole stock seen. So no line is lost, and the sampled deals' plans
 * never lean on a stock the player has not seen. With a limit on passes it would cost a pass.
 */
const scoutsForFree = (board: Board, rules: Rules): boolean =>
  rules.passes === null && !talonKnown(board) && board.waste.length % rules.draw === 0;

/**
 * Whether a choice's way sends a card home that could come straight back: the sampled deals' own
 * lines may want the card where it is, so such a choice is weighed like any other, even alone
 * (played at once as the only way forward, the next hint took the card back for a line, and the one
 * after sent it home again, round and round).
 */
const sendsHomeOnItsWay = (choice: Choice): boolean =>
  choice.path.some((move) => move.type === 'move' && isFoundation(pileIndex(move.to)));

/** Whether a choice takes a card back from its foundation, on its way or as its move. */
const takesBack = (choice: Choice): boolean =>
  [...choice.path, choice.move].some((move) => move.type === 'move' && isFoundation(pileIndex(move.from)));
