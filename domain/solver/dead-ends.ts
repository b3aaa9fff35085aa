import { KING } from '../cards.js';
import { COLUMNS } from '../piles.js';
import { HOLDER, RANK, SUIT } from './card-tables.js';
import { COLUMN_ROOM, type Position } from './position.js';

/**
 * Finds dead ends: positions where some card can never leave the place it is in, so that the game is
 * lost (every card must go home).
 *
 * The cards lie in piles they leave from the top down: a column's face-down cards and the run on them
 * (its bottom card taking the run along), and the talon; in the last pass the waste, whose top alone
 * plays, and each group of `draw` cards the stock deals at once, whose last lands on top; before it,
 * each talon card alone. A pile's top leaves by going home (every lower card of its suit has left),
 * onto a card one rank higher of the other colour (bare in a column, out of the talon, or on its
 * foundation when cards may come back) or, a King, to an empty column. Each card that can ever leave
 * does so after what it needs, so the least fixpoint of those conditions holds it, and more (a King is
 * taken to find an empty column). So a card outside it can truly never leave. A card under another is
 * neither bare nor gone while that one stays: it cannot serve it.
 */
export class DeadEnds {
  /**
   * Whether a card not home could take a card onto it: a column's face-up card (the top, or bare
   * once the cards on it have left), or a talon card that has left.
   */
  private readonly free = new Uint8Array(52);
  /** Cards in a column or the talon are marked with this check's `stamp`; the others are home. */
  private readonly present = new Int32Array(52);
  private stamp = 0;
  /** By suit, the ranks home or known to leave, bit rank - 1: what a card's way home waits for. */
  private readonly gone = new Int32Array(4);
  // The piles (in the columns' cards or the talon), each by its lowest index and its top not yet left.
  private readonly pileLow = new Int16Array(COLUMNS + 52);
  private readonly pileTop = new Int16Array(COLUMNS + 52);
  private readonly pileInTalon = new Uint8Array(COLUMNS + 52);
  private piles = 0;
  /** The position being checked. */
  private position!: Position;

  isDeadEnd(position: Position): boolean {
    const { cards, length, faceDown, talon, wasteSize, talonSize, draw, foundation } = position;
    const { free, present, gone, pileLow, pileTop, pileInTalon } = this;
    const stamp = ++this.stamp;
    this.position = position;
    this.piles = 0;
    for (let s = 0; s < 4; s++) gone[s] = (1 << foundation[s]!) - 1;
    for (let a = 0; a < COLUMNS; a++) {
      const down = faceDown[a]!;
      const start = a * COLUMN_ROOM;
      const end = start + length[a]!;
      for (let i = start; i < end; i++) {
        free[cards[i]!] = i >= start + down ? 1 : 0;
        present[cards[i]!] = stamp;
      }
      // The cards on the run's bottom leave with it.
      for (let i = start + down + 1; i < end; i++) gone[SUIT[cards[i]!]!]! |= 1 << (RANK[cards[i]!]! - 1);
      if (end > start) this.pile(0, start, start + down);
    }
    const lastPass = !position.canRecycle();
    for (let i = 0; i < talonSize; i++) {
      free[talon[i]!] = 0;
      present[talon[i]!] = stamp;
      if (!lastPass) this.pile(1, i, i);
    }
    if (lastPass) {
      if (wasteSize > 0) this.pile(1, 0, wasteSize - 1);
      for (let low = wasteSize; low < talonSize; low += draw)
        this.pile(1, low, Math.min(low + draw, talonSize) - 1);
    }
    const piles = this.piles;
    for (let changed = true; changed; ) {
      changed = false;
      for (let k = 0; k < piles; k++) {
        const inTalon = pileInTalon[k] === 1;
        const from = inTalon ? talon : cards;
        const low = pileLow[k]!;
        let at = pileTop[k]!;
        while (at >= low && this.canLeave(from[at]!)) {
          const card = from[at]!;
          gone[SUIT[card]!]! |= 1 << (RANK[card]! - 1);
          // A talon card that left can take cards; a column's next card is bare.
          if (inTalon) free[card] = 1;
          else if (at > low) free[from[at - 1]!] = 1;
          at--;
          changed = true;
        }
        pileTop[k] = at;
      }
    }
    for (let k = 0; k < piles; k++) if (pileTop[k]! >= pileLow[k]!) return true;
    return false;
  }

  private pile(inTalon: number, low: number, top: number): void {
    this.pileInTalon[this.piles] = inTalon;
    this.pileLow[this.piles] = low;
    this.pileTop[this.piles++] = top;
  }

  /** Whether the top of a pile has somewhere to go (see the class). */
  private canLeave(card: number): boolean {
    const rank = RANK[card]!;
    if (rank === KING) return true;
    const below = (1 << (rank - 1)) - 1;
    if ((this.gone[SUIT[card]!]! & below) === below) return true;
    return this.holds(HOLDER[2 * card]!) || this.holds(HOLDER[2 * card + 1]!);
  }

  /** Whether card t can be a column's top, for a card to go onto. */
  private holds(t: number): boolean {
    return this.present[t] === this.stamp ? this.free[t] === 1 : this.position.foundationToTableau;
  }
}
