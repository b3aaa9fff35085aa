import { SUIT } from './card-tables.js';
import { RUN_BOTTOM, setTakenBack, toggleFaceDown, toggleFaceUp, toggleTalon } from './key.js';
import {
  cardOfMove,
  countOf,
  FOUNDATION_TO_TABLEAU,
  fromOf,
  kindOf,
  recycleOf,
  TABLEAU_TO_FOUNDATION,
  TABLEAU_TO_TABLEAU,
  TWIN_THEN_FOUNDATION,
  talonAtOf,
  toOf,
  WASTE_TO_FOUNDATION,
  WASTE_TO_TABLEAU,
} from './packed-moves.js';
import { COLUMN_ROOM, NO_CARD, type Position } from './position.js';

/** What a move changes that `takeBack` cannot work out from the move: saved by the caller before `play`. */
export interface Before {
  wasteSize: number;
  talonSize: number;
  pass: number;
  takenBack: number;
  keyHi: number;
  keyLo: number;
}

/** Saves into `before` what `takeBack` will need (and the talon's size, for `playerMoves`). */
export function remember(position: Position, before: Before = newBefore()): Before {
  before.wasteSize = position.wasteSize;
  before.talonSize = position.talonSize;
  before.pass = position.pass;
  before.takenBack = position.takenBack;
  before.keyHi = position.keyHi;
  before.keyLo = position.keyLo;
  return before;
}

const newBefore = (): Before => ({ wasteSize: 0, talonSize: 0, pass: 0, takenBack: 0, keyHi: 0, keyLo: 0 });

/**
 * Plays packed move `m` on the position, keeping its key; returns 1 if it turned a face-down card up
 * (what `takeBack` needs besides the move and what it saved before it).
 */
export function play(position: Position, m: number): number {
  const card = cardOfMove(m);
  const kind = kindOf(m);
  setTakenBack(position, NO_CARD);
  // A move home that cards may not come back from (a card home holds nothing then), or the recycle
  // into the last pass (which deals the talon in groups), is checked for a dead end (see `Position`).
  position.deadEndCheckDue =
    !position.foundationToTableau &&
    (kind === TABLEAU_TO_FOUNDATION || kind === TWIN_THEN_FOUNDATION || kind === WASTE_TO_FOUNDATION);
  switch (kind) {
    case TWIN_THEN_FOUNDATION: {
      // `card` is P; the run on it goes to P's twin (its key does not change), then P goes home.
      const a = fromOf(m);
      moveRun(position, a, toOf(m), countOf(m));
      return sendHome(position, a, card);
    }
    case TABLEAU_TO_FOUNDATION:
      return sendHome(position, fromOf(m), card);
    case TABLEAU_TO_TABLEAU: {
      const a = fromOf(m);
      moveRun(position, a, toOf(m), countOf(m));
      return turnUpIfBare(position, a);
    }
    case WASTE_TO_FOUNDATION:
      takeFromTalon(position, talonAtOf(m), recycleOf(m));
      toggleTalon(position, card);
      addHome(position, card, 1);
      return 0;
    case WASTE_TO_TABLEAU:
      takeFromTalon(position, talonAtOf(m), recycleOf(m));
      toggleTalon(position, card);
      lay(position, toOf(m), card);
      return 0;
    default:
      addHome(position, card, -1);
      lay(position, toOf(m), card);
      if (position.prune) setTakenBack(position, card);
      return 0;
  }
}

/** Takes back packed move `m`, given what `play` returned and what the position was before it. */
export function takeBack(position: Position, m: number, turnedUp: number, before: Before): void {
  const card = cardOfMove(m);
  position.takenBack = before.takenBack;
  position.keyHi = before.keyHi;
  position.keyLo = before.keyLo;
  const kind = kindOf(m);
  const { cards, length } = position;
  if (kind === TABLEAU_TO_FOUNDATION || kind === TABLEAU_TO_TABLEAU || kind === TWIN_THEN_FOUNDATION) {
    const a = fromOf(m);
    if (turnedUp) {
      position.faceDown[a]!++;
      position.faceDownTotal++;
    }
    if (kind !== TABLEAU_TO_TABLEAU) {
      cards[a * COLUMN_ROOM + length[a]!] = card;
      length[a]!++;
      addHome(position, card, -1);
    }
    if (kind !== TABLEAU_TO_FOUNDATION) {
      const b = toOf(m);
      const n = countOf(m);
      const from = b * COLUMN_ROOM + length[b]! - n;
      const to = a * COLUMN_ROOM + length[a]!;
      for (let i = 0; i < n; i++) cards[to + i] = cards[from + i]!;
      length[a]! += n;
      length[b]! -= n;
    }
    return;
  }
  if (kind === FOUNDATION_TO_TABLEAU) {
    length[toOf(m)]!--;
    addHome(position, card, 1);
    return;
  }
  if (kind === WASTE_TO_FOUNDATION) addHome(position, card, -1);
  else length[toOf(m)]!--;
  const at = talonAtOf(m);
  const talon = position.talon;
  for (let i = position.talonSize; i >= at; i--) talon[i] = talon[i - 1]!;
  talon[at - 1] = card;
  position.talonSize++;
  position.wasteSize = before.wasteSize;
  position.pass = before.pass;
}

/** Puts a card on its foundation (+1) or takes it off (-1). */
function addHome(position: Position, card: number, change: number): void {
  position.foundation[SUIT[card]!]! += change;
  position.cardsHome += change;
}

/** Sends column a's top card home; returns 1 if that turned a card up. */
function sendHome(position: Position, a: number, card: number): number {
  toggleFaceUp(position, card, under(position, a, position.length[a]! - 1));
  position.length[a]!--;
  addHome(position, card, 1);
  return turnUpIfBare(position, a);
}

/** Turns up the top card of column a if it is face down; returns 1 if it did. */
function turnUpIfBare(position: Position, a: number): number {
  const down = position.faceDown[a]!;
  if (position.length[a] !== down || down === 0) return 0;
  position.faceDown[a] = down - 1;
  position.faceDownTotal--;
  toggleFaceDown(position, a, down);
  toggleFaceDown(position, a, down - 1);
  toggleFaceUp(position, position.cards[a * COLUMN_ROOM + down - 1]!, RUN_BOTTOM);
  return 1;
}

/** What the card at index i of column a lies on, for the key: the card below, or RUN_BOTTOM. */
const under = (position: Position, a: number, i: number): number =>
  i > position.faceDown[a]! ? position.cards[a * COLUMN_ROOM + i - 1]! : RUN_BOTTOM;

/** What a card laid on column b lies on: its top card, or RUN_BOTTOM when it is empty. */
const landing = (position: Position, b: number): number => {
  const top = position.top(b);
  return top < 0 ? RUN_BOTTOM : top;
};

/** Lays a card from the talon or a foundation on column b. */
function lay(position: Position, b: number, card: number): void {
  toggleFaceUp(position, card, landing(position, b));
  position.cards[b * COLUMN_ROOM + position.length[b]!] = card;
  position.length[b]!++;
}

/** Moves the top n cards of column a onto column b. */
function moveRun(position: Position, a: number, b: number, n: number): void {
  const { cards, length } = position;
  const from = a * COLUMN_ROOM + length[a]! - n;
  const card = cards[from]!;
  toggleFaceUp(position, card, under(position, a, length[a]! - n));
  toggleFaceUp(position, card, landing(position, b));
  const to = b * COLUMN_ROOM + length[b]!;
  for (let i = 0; i < n; i++) cards[to + i] = cards[from + i]!;
  length[a]! -= n;
  length[b]! += n;
}

/** Takes the card at talon position `at` (1..) out: the waste is then the `at - 1` cards before it. */
function takeFromTalon(position: Position, at: number, recycle: number): void {
  const talon = position.talon;
  for (let i = at - 1; i < position.talonSize - 1; i++) talon[i] = talon[i + 1]!;
  position.talonSize--;
  position.wasteSize = at - 1;
  position.pass += recycle;
  if (recycle !== 0 && !position.canRecycle()) position.deadEndCheckDue = true;
}
