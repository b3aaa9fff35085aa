import { applyMove, type Board, checkDraw, checkRecycle, checkTransfer, listMoves } from '../board.js';
import { type Card, twinOf } from '../cards.js';
import type { PlayedMove } from '../moves.js';
import { columnIndex, foundationSuit, isColumn, isFoundation, pileIndex, type SourceName } from '../piles.js';
import type { Rules } from '../rules.js';
import { stockKnown } from './knowledge.js';
import { neverNeeded } from './safety.js';

/**
 * The real decisions open to a player. A move that only rearranges face-up cards can be taken back
 * at once, so it decides nothing and shows nothing; what matters is the next move that cannot be
 * taken back: turning a card up, playing from the waste, drawing, recycling, emptying a column of a
 * card that is no King, sending home a card that cannot come straight back. (One that can is a
 * rearrangement: as a choice it would look like progress that loses nothing, and a hint would send
 * it home and the next take it back for a real choice, round and round.) A choice is such a move
 * with the rearrangements that lead to it.
 *
 * Once the player has seen the stock's order, drawing shows nothing and decides nothing by itself:
 * the choice is which card of the talon to play, and where (`talon`), with the draws and recycles
 * that bring it to the top of the waste as its path. Drawing is then no choice of its own, so a hint
 * can never send the player round the talon for ever, nor prefer a draw because it puts off the
 * decision (with every card known a draw loses nothing that can still be won a pass later).
 */
export type ChoiceKind = 'home' | 'reveal' | 'waste' | 'talon' | 'column' | 'draw' | 'recycle';

export interface Choice {
  /** Moves that can each be taken back at once, played first. */
  readonly path: readonly PlayedMove[];
  /** The move that cannot be taken back. */
  readonly move: PlayedMove;
  readonly kind: ChoiceKind;
  /** For a card turned up: how many face-down cards its column had. */
  readonly under: number;
}

/** Whether drawing shows the player nothing new: the stock's order is known, or the stock is empty. */
export const talonKnown = (board: Board): boolean => stockKnown(board) || board.stock.length === 0;

/**
 * How far the rearrangements are followed, and how many positions they may reach at most; when
 * none leads to a choice that far, further, so that a way out is not missed.
 */
const MAX_PATH = 3;
const MAX_POSITIONS = 48;
const MAX_PATH_WHEN_STUCK = 12;
const MAX_POSITIONS_WHEN_STUCK = 2_000;

/** The visible part of a board that rearrangements change: the tableau and the foundations. */
export const arrangementKey = (board: Board): string =>
  `${board.foundations.map((cards) => cards.length).join(',')}|${board.tableau
    .map((column) => `${column.hidden.length}:${column.up.join(',')}`)
    .join('/')}`;

export const moveKey = (move: PlayedMove): string =>
  move.type === 'move' ? `${move.from}-${move.to}-${move.count}` : move.type;

/** A position's key as far as a path changes it: its arrangement, the talon and the pass. */
const positionKey = (board: Board): string =>
  `${arrangementKey(board)}|${board.waste.length}|${board.stock.length}|${board.pass}`;

/** The key of a talon choice: the draws and recycles before it (`steps`), and its move. */
export const talonKey = (steps: number, move: PlayedMove): string => `${steps}:${moveKey(move)}`;

/** A choice's key: choices are told apart by it (see `choices`). */
export const choiceKey = (choice: Choice): string =>
  choice.kind === 'talon'
    ? talonKey(choice.path.filter((move) => move.type !== 'move').length, choice.move)
    : moveKey(choice.move);

/**
 * What kind of choice a move is on `board`, or null when it only rearranges face-up cards: it
 * turns nothing up, leaves the talon alone, and the same cards can go straight back.
 */
export function kindOf(board: Board, rules: Rules, move: PlayedMove): ChoiceKind | null {
  if (move.type !== 'move') return move.type;
  if (move.from === 'waste') return 'waste';
  const applied = applyMove(board, rules, move);
  if (applied.revealed) return 'reveal';
  const back = { from: pileIndex(move.to), to: pileIndex(move.from), count: move.count };
  if (checkTransfer(applied.board, rules, back) === undefined) return null;
  return isFoundation(pileIndex(move.to)) ? 'home' : 'column';
}

/** The choice of `kind` that `move` is on `board`, reached by `path`. */
export function choiceAt(
  board: Board,
  path: readonly PlayedMove[],
  move: PlayedMove,
  kind: ChoiceKind,
): Choice {
  const under =
    kind === 'reveal' && move.type === 'move'
      ? board.tableau[columnIndex(pileIndex(move.from))]!.hidden.length
      : 0;
  return { path, move, kind, under };
}

/**
 * Every choice from `board` (the player's board: nothing here looks under a face-down card), found
 * by following rearrangements breadth first, so each comes with a shortest path, and each move once.
 * Draws and recycles are offered from the position as it is: they commute with any rearrangement.
 * A card that no other card can need is never taken back from its foundation: it went there safely.
 */
export function choices(board: Board, rules: Rules): Choice[] {
  const talon = talonKnown(board);
  const found = new Map<string, Choice>();
  const reached = new Map<string, readonly PlayedMove[]>([[arrangementKey(board), []]]);
  let layer: { board: Board; path: readonly PlayedMove[]; lifted: readonly Lifted[] }[] = [
    { board, path: [], lifted: [] },
  ];
  for (let depth = 0; layer.length > 0; depth++) {
    const stuck = found.size === 0;
    if (depth > (stuck ? MAX_PATH_WHEN_STUCK : MAX_PATH)) break;
    const limit = stuck ? MAX_POSITIONS_WHEN_STUCK : MAX_POSITIONS;
    const next: typeof layer = [];
    for (const position of layer) {
      if (talon) {
        for (const choice of talonChoices(position.board, rules, position.path)) {
          const key = choiceKey(choice);
          if (!found.has(key)) found.set(key, choice);
        }
      }
      for (const move of listMoves(position.board, rules)) {
        if (move.type !== 'move' && (depth > 0 || talon)) continue;
        if (position.lifted.some((lift) => needless(lift, move))) continue;
        const kind = kindOf(position.board, rules, move);
        if (kind !== null) {
          if (kind === 'home' && sendsBack(position.path, move)) continue;
          // The same move further on is the same decision, made after needless rearranging.
          const key = moveKey(move);
          if (!found.has(key)) found.set(key, choiceAt(position.board, position.path, move, kind));
          continue;
        }
        if (takesBackSafeCard(position.board, rules, move) || swapsColumns(position.board, move)) continue;
        if (reached.size >= limit) continue;
        const after = applyMove(position.board, rules, move).board;
        const key = arrangementKey(after);
        if (reached.has(key)) continue;
        const path = [...position.path, move];
        reached.set(key, path);
        next.push({ board: after, path, lifted: lifted(after, move, position.lifted) });
      }
    }
    layer = next;
  }
  return [...found.values()];
}

/**
 * The choice a winning line makes first, with the line's moves before it as its path: its
 * rearrangements, played on the player's board (they show nothing, so they are the same moves
 * there), up to its first move that cannot be taken back. Once the player knows the stock's order,
 * its draws and recycles are counted on to the card it plays from the waste (a talon choice); they
 * commute with any move that leaves the waste alone. Where the line comes back to a position it has
 * passed (a card sent home and taken straight back), the moves between are no part of the way: a
 * hint that began them would be followed by one that undid it, back and forth.
 */
export function lineChoice(board: Board, rules: Rules, line: readonly PlayedMove[]): Choice | undefined {
  const talon = talonKnown(board);
  const path: PlayedMove[] = [];
  let current = board;
  // The positions the path has passed: passed[i] after its first i moves.
  const passed = [positionKey(board)];
  for (const move of line) {
    const kind = kindOf(current, rules, move);
    if (kind === null || (talon && (kind === 'draw' || kind === 'recycle'))) {
      path.push(move);
      current = applyMove(current, rules, move).board;
      const key = positionKey(current);
      const at = passed.indexOf(key);
      if (at < 0) passed.push(key);
      else {
        path.length = at;
        passed.length = at + 1;
      }
      continue;
    }
    const drawn = path.some((step) => step.type !== 'move');
    const fromWaste = move.type === 'move' && move.from === 'waste';
    return choiceAt(current, path, move, drawn && fromWaste ? 'talon' : kind);
  }
  return undefined;
}

/**
 * With the stock's order known: every card the draws bring to the top of the waste, each way it can
 * be played, reached with the fewest draws, after the rearrangements `before`. The talon is followed
 * through the stock and, where the rules allow, one recycle and the stock once more: every card of
 * it comes up at least once.
 */
function talonChoices(board: Board, rules: Rules, before: readonly PlayedMove[]): Choice[] {
  const found: Choice[] = [];
  const seen = new Set<Card>();
  const path: PlayedMove[] = [...before];
  let current = board;
  for (let recycles = 0; ; ) {
    let step: PlayedMove;
    if (checkDraw(current) === undefined) step = { type: 'draw' };
    else if (recycles === 0 && checkRecycle(current, rules) === undefined) step = { type: 'recycle' };
    else break;
    if (step.type === 'recycle') recycles++;
    current = applyMove(current, rules, step).board;
    path.push(step);
    const top = current.waste.at(-1);
    if (step.type === 'recycle' || top === undefined || seen.has(top)) continue;
    seen.add(top);
    for (const move of listMoves(current, rules)) {
      if (move.type !== 'move' || move.from !== 'waste') continue;
      found.push({ path: path.slice(), move, kind: 'talon', under: 0 });
    }
  }
  return found;
}

/**
 * Whether a move takes a whole column (nothing face down) to an empty one: the columns only change
 * places, and what can be done after it can be done without it in the other column. Followed, it
 * would lead to a choice through it from either column, and hints would move a king's run between
 * two empty columns, back and forth.
 */
function swapsColumns(board: Board, move: PlayedMove): boolean {
  if (move.type !== 'move' || !isColumn(pileIndex(move.from)) || !isColumn(pileIndex(move.to))) return false;
  const from = board.tableau[columnIndex(pileIndex(move.from))]!;
  const to = board.tableau[columnIndex(pileIndex(move.to))]!;
  return (
    from.hidden.length === 0 && move.count === from.up.length && to.up.length === 0 && to.hidden.length === 0
  );
}

/**
 * A run a rearrangement moved from a face-up card onto that card's twin (the other card of its rank
 * and colour), while neither column has changed since. Until then every move from or onto the run,
 * and every move of the run that held it to another column, could have been made before it, with the
 * run where it was (the whole run goes where its bottom card goes; the run's top was that column's
 * top): a way through them is a longer way to the same choice, but for which twin holds the run.
 * Followed, it made a choice weighed from one twin the same way back from the other, and hints moved
 * the run between the twins, back and forth. The card left on top going home, or taking a card,
 * stays a way: the move to the twin is what makes room for it.
 */
interface Lifted {
  /** The column the run left, and the card it left on top there. */
  readonly from: SourceName;
  readonly card: Card;
  /** The column it went to, and its top card. */
  readonly to: SourceName;
  readonly top: Card;
}

/** Whether a move is one of those a lifted run makes needless (see `Lifted`). */
const needless = (lift: Lifted, move: PlayedMove): boolean =>
  move.type === 'move' &&
  (move.from === lift.to || move.to === lift.to || (move.from === lift.from && isColumn(pileIndex(move.to))));

/** The runs lifted on `after`, the board after `move` (see `Lifted`), given those before it. */
function lifted(after: Board, move: PlayedMove, before: readonly Lifted[]): Lifted[] {
  const topOf = (pile: SourceName) => after.tableau[columnIndex(pileIndex(pile))]!.up.at(-1);
  const still = before.filter((lift) => topOf(lift.from) === lift.card && topOf(lift.to) === lift.top);
  if (move.type !== 'move' || !isColumn(pileIndex(move.from)) || !isColumn(pileIndex(move.to))) return still;
  const card = topOf(move.from);
  const onto = after.tableau[columnIndex(pileIndex(move.to))]!.up;
  if (card === undefined || onto[onto.length - move.count - 1] !== twinOf(card)) return still;
  return [...still, { from: move.from, card, to: move.to, top: onto.at(-1)! }];
}

/** Whether a move home sends back the card a move of `path` took from that foundation: no choice. */
const sendsBack = (path: readonly PlayedMove[], move: PlayedMove): boolean =>
  move.type === 'move' && path.some((step) => step.type === 'move' && step.from === move.to);

/** Whether a move takes back from its foundation a card no other card can need (see `neverNeeded`). */
function takesBackSafeCard(board: Board, rules: Rules, move: PlayedMove): boolean {
  if (move.type !== 'move' || !isFoundation(pileIndex(move.from))) return false;
  const heights = board.foundations.map((cards) => cards.length);
  const card = board.foundations[foundationSuit(pileIndex(move.from))]!.at(-1)!;
  return neverNeeded(card, heights, rules.foundationToTableau);
}

/**
 * Choices in the order a player would try them, all else equal: the earlier kind, the column with
 * more cards face down (the cards hardest to reach), the shorter path.
 * A card that can come back from its foundation goes home last: a plan that takes one back to lay
 * a card on it must not be undone by the next hint.
 */
const PREFERENCE: readonly ChoiceKind[] = ['reveal', 'column', 'waste', 'talon', 'draw', 'recycle', 'home'];
export const preference = (choice: Choice): number =>
  PREFERENCE.indexOf(choice.kind) * 8192 + (32 - choice.under) * 128 + choice.path.length;

/** The first move a choice asks for. */
export const firstMove = (choice: Choice): PlayedMove => choice.path[0] ?? choice.move;
