import { twinOf } from '../cards.js';
import { COLUMNS } from '../piles.js';
import { mulberry32 } from '../shuffle.js';
import { COLUMN_ROOM, type Position } from './position.js';

/**
 * The position's key: a 64-bit Zobrist hash (two 32-bit halves), kept up to date move by move. It
 * leaves out the waste's size and the pass (the table of positions compares those, see `seen.ts`),
 * and boards that differ only in the order of their columns key alike: each face-up card is keyed by
 * the card it lies on (or the bottom of its run), each column by its count of face-down cards (which
 * fixes which cards they are), the talon by its set. Foundations follow from the rest.
 *
 * With the prunings on, a face-up card is keyed by the rank and colour of the card it lies on, not
 * by which of the two twins that is (`keyedUnder`): boards that differ only by which twin holds which
 * run key alike. They are as good as each other. Say twins P and P' hold runs R and R'. If both runs
 * are there, exchanging them maps every legal move of one board to a legal move of the other (neither
 * twin can go home or take a card; moving P or P' takes its run along; a card of R stays on R's
 * cards), and the boards after them are exchanged the same way, so one wins when the other does. If
 * one of them, R', is empty, the boards are one move apart both ways (R from one twin to the other).
 * So the search never moves a run from a twin to the other alone: it lays cards on either bare twin
 * (`MoveList.addOnto`) and, for a covered P whose twin is bare, makes the one move the exchange was
 * needed for, P home (TWIN_THEN_FOUNDATION). As a face-up card that is not the bottom of its run can
 * only lie on a card of the rank above and the other colour, the key comes down to the set of face-up
 * cards, which of them are bottoms, and each column's count of face-down cards.
 */

/** What a face-up card at the bottom of its run is keyed as lying on. */
export const RUN_BOTTOM = 52;
const UNDER = 53; // one of the 52 cards, or RUN_BOTTOM

// Random keys from a fixed generator: the same on every run.
const random = mulberry32(0x5eed_c0de);
const keys = (count: number): Int32Array => Int32Array.from({ length: count }, () => random() | 0);
const FACE_UP_HI = keys(52 * UNDER);
const FACE_UP_LO = keys(52 * UNDER);
const FACE_DOWN_HI = keys(COLUMNS * (COLUMN_ROOM + 1));
const FACE_DOWN_LO = keys(COLUMNS * (COLUMN_ROOM + 1));
const TALON_HI = keys(52);
const TALON_LO = keys(52);
// The card just taken back from its foundation, at card + 1; none (0) keys to nothing.
const TAKEN_BACK_HI = keys(53);
const TAKEN_BACK_LO = keys(53);
TAKEN_BACK_HI[0] = 0;
TAKEN_BACK_LO[0] = 0;

/** What a face-up card lying on `under` is keyed by: with the prunings, a card and its twin are one. */
const keyedUnder = (position: Position, under: number): number =>
  under === RUN_BOTTOM || !position.prune ? under : Math.min(under, twinOf(under));

/** Computes the key afresh (at the start; `play` keeps it up to date after that). */
export function computeKey(position: Position): void {
  position.keyHi = 0;
  position.keyLo = 0;
  const { cards, length, faceDown, talon } = position;
  for (let a = 0; a < COLUMNS; a++) {
    const down = faceDown[a]!;
    toggleFaceDown(position, a, down);
    let under = RUN_BOTTOM;
    for (let i = a * COLUMN_ROOM + down, end = a * COLUMN_ROOM + length[a]!; i < end; i++) {
      toggleFaceUp(position, cards[i]!, under);
      under = cards[i]!;
    }
  }
  for (let i = 0; i < position.talonSize; i++) toggleTalon(position, talon[i]!);
  position.keyHi ^= TAKEN_BACK_HI[position.takenBack + 1]!;
  position.keyLo ^= TAKEN_BACK_LO[position.takenBack + 1]!;
}

/** Adds face-up `card` lying on `under` (a card or RUN_BOTTOM) to the key, or takes it out. */
export function toggleFaceUp(position: Position, card: number, under: number): void {
  const at = card * UNDER + keyedUnder(position, under);
  position.keyHi ^= FACE_UP_HI[at]!;
  position.keyLo ^= FACE_UP_LO[at]!;
}

/**
 * The two halves of what face-up `card` lying on `under` adds to the key (`toggleFaceUp`), for the
 * key of the same position with that card elsewhere.
 */
export function faceUpHi(position: Position, card: number, under: number): number {
  return FACE_UP_HI[card * UNDER + keyedUnder(position, under)]!;
}
export function faceUpLo(position: Position, card: number, under: number): number {
  return FACE_UP_LO[card * UNDER + keyedUnder(position, under)]!;
}

/** Adds "column a has `count` face-down cards" to the key, or takes it out. */
export function toggleFaceDown(position: Position, a: number, count: number): void {
  position.keyHi ^= FACE_DOWN_HI[a * (COLUMN_ROOM + 1) + count]!;
  position.keyLo ^= FACE_DOWN_LO[a * (COLUMN_ROOM + 1) + count]!;
}

/** Adds a talon card to the key, or takes it out. */
export function toggleTalon(position: Position, card: number): void {
  position.keyHi ^= TALON_HI[card]!;
  position.keyLo ^= TALON_LO[card]!;
}

/** Sets the card just taken back from its foundation (or NO_CARD), and the key with it. */
export function setTakenBack(position: Position, card: number): void {
  position.keyHi ^= TAKEN_BACK_HI[position.takenBack + 1]! ^ TAKEN_BACK_HI[card + 1]!;
  position.keyLo ^= TAKEN_BACK_LO[position.takenBack + 1]! ^ TAKEN_BACK_LO[card + 1]!;
  position.takenBack = card;
}
