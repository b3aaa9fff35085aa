import { cardOf, KING } from '../cards.js';
import { COLUMNS } from '../piles.js';
import { HOLDER, RANK, TWIN } from './card-tables.js';
import { commutes } from './commuting.js';
import { DeadEnds } from './dead-ends.js';
import { coverable, leftmost, meetsObligation, type Tops } from './obligations.js';
import {
  FOUNDATION_TO_TABLEAU,
  packMove,
  TABLEAU_TO_FOUNDATION,
  TABLEAU_TO_TABLEAU,
  TWIN_THEN_FOUNDATION,
  WASTE_TO_FOUNDATION,
  WASTE_TO_TABLEAU,
} from './packed-moves.js';
import { COLUMN_ROOM, NO_CARD, type Position } from './position.js';
import { neverNeeded, safeMove } from './safety.js';
import { TalonStops } from './talon.js';

const MOST_MOVES = 512;

/**
 * The order in which a position's moves are tried (see `generate`; any order is sound).
 * `turnUpsFirst`: a card home from a column, a card turned up (from the column with most face-down
 * cards first), a talon card home, a run moved to a twin to send its card home, a talon card onto a
 * column (fewest draws first), a column emptied, a card back from its foundation. `talonFirst`, the
 * second search's (`search.ts`): a card home from a column, a talon card home, a talon card onto a
 * column (most draws first, both), a card turned up (from the column with fewest face-down cards
 * first), and the rest as in `turnUpsFirst`.
 */
export type MoveOrder = 'turnUpsFirst' | 'talonFirst';

/** The scores of the moves `MoveOrder` orders differently (higher first). */
interface Scores {
  readonly turnUp: number;
  /** Added for each face-down card in the column. */
  readonly turnUpPerCard: number;
  readonly talonHome: number;
  readonly talonOntoColumn: number;
  readonly kingFromTalon: number;
  /** Added for each draw a talon move takes (30 for a recycle). */
  readonly talonPerDraw: number;
}

const SCORES: Record<MoveOrder, Scores> = {
  // A talon card home after the cards turned up (800 and more), before those onto a column: on seeds
  // 0..599 that decides a median deal in about 5% fewer nodes than home first.
  turnUpsFirst: {
    turnUp: 800,
    turnUpPerCard: 1,
    talonHome: 790,
    talonOntoColumn: 600,
    kingFromTalon: 600,
    talonPerDraw: -1,
  },
  // Chosen on the unlimited-pass deals the first order wins only after more than a second
  // (docs/solver.md, Speed).
  talonFirst: {
    turnUp: 820,
    turnUpPerCard: -1,
    talonHome: 950,
    talonOntoColumn: 900,
    kingFromTalon: 600,
    talonPerDraw: 1,
  },
};

/**
 * Makes the list of moves worth trying in a position, most promising first (`generate`), with the
 * scratch space that takes, so that listing allocates nothing.
 */
export class MoveList implements Tops {
  readonly topAt = new Int8Array(52).fill(-1);
  private readonly moves = new Int32Array(MOST_MOVES);
  private readonly scores = new Int32Array(MOST_MOVES);
  private readonly tops = new Int8Array(COLUMNS);
  private readonly talon = new TalonStops();
  private readonly deadEnds = new DeadEnds();
  private n = 0;
  private previous = -1;
  private position!: Position;
  private firstEmpty = -1;
  private takenBackColumn = -1;
  /** The cards `isPlayable` finds, marked with `stamp` as `generate` lists the moves that play them. */
  private readonly playable = new Float64Array(52);
  private stamp = 0;
  private readonly weights: Scores;

  constructor(order: MoveOrder = 'turnUpsFirst') {
    this.weights = SCORES[order];
  }

  /**
   * Writes the moves worth trying at `out[off..]`, most promising first; returns how many.
   *
   * - A safe move to the foundations (`safeMove`) is the only move listed; a dead end (`dead-ends.ts`)
   *   lists none.
   * - After a card was taken back from its foundation, only the moves that meet its obligation
   *   (`obligations.ts`).
   * - Not the moves that commute with `previous`, the move that led here (`commuting.ts`; -1 for
   *   none, and where the position before listed only a safe move or had an obligation).
   * - Not the talon moves of the stops in `covered` (bit `at`), which the same position with another
   *   waste size listed (`SeenPositions.coveredStops`).
   */
  generate(position: Position, out: Int32Array, off: number, previous = -1, covered = 0): number {
    // The dead-end check before the safe move: no check is due after a safe move (a card home, with
    // no draws), so a dead end it is played in would go unseen until the next draws of the last pass.
    if (position.prune && position.deadEndCheckDue && this.deadEnds.isDeadEnd(position)) return 0;
    const safe = safeMove(position);
    if (safe >= 0) {
      out[off] = safe;
      return 1;
    }
    this.position = position;
    this.previous = position.prune ? previous : -1;
    this.n = 0;
    const { cards, length, faceDown, foundation } = position;
    const { tops, topAt } = this;
    this.firstEmpty = -1;
    this.takenBackColumn = -1;
    for (let b = 0; b < COLUMNS; b++) {
      const top = position.top(b);
      tops[b] = top;
      if (top < 0 && this.firstEmpty < 0) this.firstEmpty = b;
      if (top >= 0) {
        topAt[top] = b;
        if (top === position.takenBack) this.takenBackColumn = b;
      }
    }
    const firstEmpty = this.firstEmpty;
    this.talon.list(position);
    const { playable } = this;
    const stamp = ++this.stamp;

    // Tableau to foundation, and tableau to tableau.
    for (let a = 0; a < COLUMNS; a++) {
      const l = length[a]!;
      const down = faceDown[a]!;
      if (l === 0) continue;
      const top = cards[a * COLUMN_ROOM + l - 1]!;
      if (position.canGoHome(top))
        this.add(
          packMove(TABLEAU_TO_FOUNDATION, a, 0, 1, 0, 0, top),
          l - 1 === down && down > 0 ? 1100 : 1000,
        );
      for (let i = down; i < l; i++) {
        const card = cards[a * COLUMN_ROOM + i]!;
        playable[card] = stamp;
        const count = l - i;
        if (i > down) {
          // A run off face-up P: the only other card that takes it is P's twin.
          const under = cards[a * COLUMN_ROOM + i - 1]!;
          const to = topAt[TWIN[under]!]!;
          if (to < 0) continue;
          // With twins alike in the key the run's move alone changes nothing (see `key.ts`): it is
          // only made to send P home, in the same move: before the talon's moves onto a column.
          const home = position.canGoHome(under);
          if (position.prune) {
            if (home) this.add(packMove(TWIN_THEN_FOUNDATION, a, to, count, 0, 0, under), 700);
          } else this.add(packMove(TABLEAU_TO_TABLEAU, a, to, count, 0, 0, card), home ? 500 : 200);
          continue;
        }
        const score = down > 0 ? this.weights.turnUp + this.weights.turnUpPerCard * down : 300;
        if (RANK[card] === KING) {
          // A King's run to an empty column: pointless from a column with nothing face down under it.
          if (i > 0 && firstEmpty >= 0)
            this.add(packMove(TABLEAU_TO_TABLEAU, a, firstEmpty, count, 0, 0, card), score);
          continue;
        }
        this.addOnto(TABLEAU_TO_TABLEAU, a, count, 0, 0, card, score);
      }
    }

    // The talon: every card that some number of draws (and at most one recycle) brings to the waste's top.
    const stops = this.talon;
    for (let k = 0; k < stops.count; k++) {
      playable[position.talon[stops.at[k]! - 1]!] = stamp;
      if ((covered >> stops.at[k]!) & 1) continue;
      this.addFromTalon(stops.at[k]!, stops.recycle[k]!, stops.draws[k]!);
    }

    // Foundation to tableau.
    if (position.foundationToTableau) {
      for (let s = 0; s < 4; s++) {
        const height = foundation[s]!;
        if (height === 0) continue;
        const card = cardOf(height, s);
        const to =
          height === KING ? firstEmpty : leftmost(this.holderColumn(card, 0), this.holderColumn(card, 1));
        if (to < 0 || (position.prune && !coverable(position, this, card, to))) continue;
        if (height === KING) {
          this.add(packMove(FOUNDATION_TO_TABLEAU, s, firstEmpty, 1, 0, 0, card), 50);
          continue;
        }
        this.addOnto(FOUNDATION_TO_TABLEAU, s, 1, 0, 0, card, 100);
      }
    }

    for (let b = 0; b < COLUMNS; b++) if (tops[b]! >= 0) topAt[tops[b]!] = -1;
    return this.sortInto(out, off);
  }

  /** Writes the list at out[off..], most promising first (insertion sort: lists are short, ties keep their order). */
  private sortInto(out: Int32Array, off: number): number {
    const { moves, scores, n } = this;
    for (let i = 1; i < n; i++) {
      const m = moves[i]!;
      const score = scores[i]!;
      let j = i - 1;
      while (j >= 0 && scores[j]! < score) {
        moves[j + 1] = moves[j]!;
        scores[j + 1] = scores[j]!;
        j--;
      }
      moves[j + 1] = m;
      scores[j + 1] = score;
    }
    for (let i = 0; i < n; i++) out[off + i] = moves[i]!;
    return n;
  }

  holderColumn(card: number, k: number): number {
    return this.topAt[HOLDER[2 * card + k]!]!;
  }

  isPlayable(x: number): boolean {
    return this.playable[x] === this.stamp;
  }

  /** Adds a move to the list, if it meets the obligation of a card just taken back. */
  private add(m: number, score: number): void {
    const position = this.position;
    if (position.takenBack !== NO_CARD && !meetsObligation(this.takenBackColumn, m)) return;
    if (this.previous >= 0 && commutes(this.previous, m)) return;
    this.moves[this.n] = m;
    this.scores[this.n++] = score;
  }

  /**
   * Adds the move of `card` (with the cards on it, `count` in all) from column or suit `from` onto
   * each column whose top takes it: the two cards one rank higher of the other colour. They are twins
   * (same rank, same colour), and when both are tops the card goes onto the first only: a run on one
   * twin moves to the other in one move and back, so the two positions are as good as each other.
   */
  private addOnto(
    kind: number,
    from: number,
    count: number,
    talonAt: number,
    recycle: number,
    card: number,
    score: number,
  ) {
    const b1 = this.holderColumn(card, 0);
    const b2 = this.holderColumn(card, 1);
    const first = leftmost(b1, b2);
    const second = first === b1 ? b2 : b1;
    const source = kind === TABLEAU_TO_TABLEAU ? from : -1;
    if (first >= 0 && first !== source) {
      this.add(packMove(kind, from, first, count, talonAt, recycle, card), score);
      if (this.position.prune) return;
    }
    if (second >= 0 && second !== source)
      this.add(packMove(kind, from, second, count, talonAt, recycle, card), score);
  }

  /** Adds the moves of the talon's card at position `at`, reached by `draws` draws and `recycle` recycles. */
  private addFromTalon(at: number, recycle: number, draws: number): void {
    const position = this.position;
    const card = position.talon[at - 1]!;
    const weights = this.weights;
    const drawn = weights.talonPerDraw * (draws + recycle * 30);
    if (position.canGoHome(card)) {
      this.add(packMove(WASTE_TO_FOUNDATION, 0, 0, 1, at, recycle, card), weights.talonHome + drawn);
      // A card never needed again, laid on a column, would be the next position's safe move, alone
      // (no other top was safe here, and laying it changes no foundation): that reaches the position
      // its move home reaches. Not under an obligation, where its move home is not listed.
      if (
        position.prune &&
        position.takenBack === NO_CARD &&
        neverNeeded(card, position.foundation, position.foundationToTableau)
      )
        return;
    }
    if (RANK[card] === KING) {
      if (this.firstEmpty >= 0)
        this.add(
          packMove(WASTE_TO_TABLEAU, 0, this.firstEmpty, 1, at, recycle, card),
          weights.kingFromTalon + drawn,
        );
      return;
    }
    this.addOnto(WASTE_TO_TABLEAU, 0, 1, at, recycle, card, weights.talonOntoColumn + drawn);
  }
}
