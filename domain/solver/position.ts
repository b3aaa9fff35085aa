import type { Board } from '../board.js';
import type { Card } from '../cards.js';
import { COLUMNS } from '../piles.js';
import type { Rules } from '../rules.js';
import { HOME_AT, RANK, SUIT } from './card-tables.js';

/** Room for one column's cards, face down and face up (a deal has at most 6 + 13). */
export const COLUMN_ROOM = 52;
/** `takenBack` when no card has just come back from its foundation. */
export const NO_CARD = -1;

/**
 * The solver's board: mutable typed arrays, changed in place by `play` and restored exactly by
 * `takeBack` (see `play.ts`), so that a search of millions of positions allocates nothing per position.
 *
 * The stock and the waste are one sequence, the talon: the waste bottom to top, then the stock top to
 * bottom. Cards only ever leave it, and a recycle keeps its order, so the talon's state is the set of
 * cards still in it and how many of them are on the waste.
 */
export class Position {
  /** Column `a` holds its cards bottom to top at `a * COLUMN_ROOM`; the first `faceDown[a]` are face down. */
  readonly cards = new Int8Array(COLUMNS * COLUMN_ROOM);
  readonly length = new Int8Array(COLUMNS);
  readonly faceDown = new Int8Array(COLUMNS);
  faceDownTotal = 0;
  /** Cards on each foundation, by suit. */
  readonly foundation = new Int8Array(4);
  cardsHome = 0;
  readonly talon = new Int8Array(52);
  talonSize = 0;
  /** Talon cards on the waste: the waste's top card is `talon[wasteSize - 1]`. */
  wasteSize = 0;
  pass: number;
  /**
   * The card the last move took back from its foundation, or NO_CARD. That is only worth it if a card
   * is laid on it next, or another card comes back from a foundation next, so the search tries only
   * those follow-ups (see `obligations.ts`). It is part of the position's key.
   */
  takenBack = NO_CARD;
  /** The position's key (see `key.ts`), kept up to date by `play`. */
  keyHi = 0;
  keyLo = 0;
  /**
   * Whether the search checks the position for a dead end (`dead-ends.ts`): at the start, on the
   * recycle into the last pass, and after a move home when cards may not come back. Leaving it out is
   * always sound (it only prunes); it is left out where it finds too little for its cost. A card
   * sent home when cards may come back only helps the others: it can still come back to hold a card,
   * and the cards it lay on are free. Before the last pass each talon card is a pile of its own, so a
   * talon card laid on a column (on the run, or a King alone) or sent home (cards may come back) only
   * helps too: it leaves its pile at once and holds what it held. The last pass deals the talon in
   * groups, and its draws merge the groups they deal into the waste: that can make a dead end, but a
   * check after each of them found one in 0.3% of checks on a hard deal, and with a check only on
   * the recycle into the last pass the search decides as many deals within a second, in 7% less
   * time (docs/solver.md). Moves between columns and back from the foundations were never seen to
   * make a dead end (4.7 million of them, on 23 hard deals).
   */
  deadEndCheckDue = true;

  readonly draw: number;
  /** Passes allowed; Infinity when unlimited. */
  readonly passes: number;
  readonly foundationToTableau: boolean;

  /**
   * @param prune whether the search may use what only the prunings need: obligations, waste-size
   *   dominance, twins alike, commuting moves and dead ends. Without them it is plainer and
   *   slower, which is what they are checked against.
   */
  constructor(
    board: Board,
    rules: Rules,
    readonly prune = true,
  ) {
    this.draw = rules.draw;
    this.passes = rules.passes ?? Number.POSITIVE_INFINITY;
    this.foundationToTableau = rules.foundationToTableau;
    board.tableau.forEach((column, a) => {
      const cards = [...column.hidden, ...column.up];
      cards.forEach((card, i) => {
        this.cards[a * COLUMN_ROOM + i] = card;
      });
      this.length[a] = cards.length;
      this.faceDown[a] = column.hidden.length;
      this.faceDownTotal += column.hidden.length;
    });
    board.foundations.forEach((cards, s) => {
      this.foundation[s] = cards.length;
      this.cardsHome += cards.length;
    });
    const talon = [...board.waste, ...board.stock.slice().reverse()];
    talon.forEach((card, i) => {
      this.talon[i] = card;
    });
    this.talonSize = talon.length;
    this.wasteSize = board.waste.length;
    this.pass = board.pass;
  }

  /** The top card of column a, or -1 when it is empty. */
  top(a: number): number {
    const l = this.length[a]!;
    return l > 0 ? this.cards[a * COLUMN_ROOM + l - 1]! : -1;
  }

  /** Whether the card may go to its foundation now. */
  canGoHome(card: Card): boolean {
    return this.foundation[SUIT[card]!] === HOME_AT[card];
  }

  /** Whether the card is the top of its foundation. */
  isTopOfFoundation(card: Card): boolean {
    return this.foundation[SUIT[card]!] === RANK[card];
  }

  /** Whether a recycle is left (always with unlimited passes). */
  canRecycle(): boolean {
    return this.pass < this.passes;
  }

  /**
   * Whether the game plays itself out from here: with nothing face down and the talon empty every
   * card is in descending runs, and the lowest card not yet home is always a column's top
   * (`finish` in `line.ts` plays them).
   */
  finishesByItself(): boolean {
    return this.faceDownTotal === 0 && this.talonSize === 0;
  }
}
