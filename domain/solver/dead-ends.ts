import { cardOf, holderOf, KING, rankOf, suitOf } from '../cards.js';
import { COLUMNS } from '../piles.js';
import { COLUMN_ROOM, type Position } from './position.js';

// Where a card is.
const IN_COLUMN = 0;
const IN_TALON = 1;
const HOME = 2;

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
  private readonly placeOf = new Uint8Array(52);
  private readonly bare = new Uint8Array(52);
  private readonly leaves = new Uint8Array(52);
  // The piles (in the columns' cards or the talon), each by its lowest index and its top not yet left.
  private readonly pileLow = new Int16Array(COLUMNS + 52);
  private readonly pileTop = new Int16Array(COLUMNS + 52);
  private readonly pileInTalon = new Uint8Array(COLUMNS + 52);
  private piles = 0;
  /** The position being checked. */
  private position!: Position;

  isDeadEnd(position: Position): boolean {
    const { cards, length, faceDown, talon, wasteSize, talonSize, draw } = position;
    const { placeOf, bare, leaves, pileLow, pileTop, pileInTalon } = this;
    this.position = position;
    this.piles = 0;
    placeOf.fill(HOME);
    for (let a = 0; a < COLUMNS; a++) {
      const down = faceDown[a]!;
      for (let i = 0; i < length[a]!; i++) {
        const card = cards[a * COLUMN_ROOM + i]!;
        placeOf[card] = IN_COLUMN;
        bare[card] = i >= down ? 1 : 0;
        leaves[card] = i > down ? 1 : 0;
      }
      if (length[a]! > 0) this.pile(0, a * COLUMN_ROOM, a * COLUMN_ROOM + down);
    }
    const lastPass = !position.canRecycle();
    for (let i = 0; i < talonSize; i++) {
      placeOf[talon[i]!] = IN_TALON;
      leaves[talon[i]!] = 0;
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
        const from = pileInTalon[k] ? talon : cards;
        const low = pileLow[k]!;
        let at = pileTop[k]!;
        while (at >= low && this.canLeave(from[at]!)) {
          leaves[from[at]!] = 1;
          if (--at >= low) bare[from[at]!] = 1;
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
    if (rankOf(card) === KING) return true;
    const s = suitOf(card);
    let home = true;
    for (let x = cardOf(this.position.foundation[s]! + 1, s); x < card && home; x++)
      home = this.leaves[x] === 1;
    return home || this.holds(holderOf(card, 0)) || this.holds(holderOf(card, 1));
  }

  /** Whether card t can be a column's top, for a card to go onto. */
  private holds(t: number): boolean {
    const place = this.placeOf[t]!;
    if (place === HOME) return this.position.foundationToTableau;
    return (place === IN_COLUMN ? this.bare[t] : this.leaves[t]) === 1;
  }
}
