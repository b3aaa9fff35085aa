import type { Board } from '../board.js';
import type { Card } from '../cards.js';
import type { PlayedMove } from '../moves.js';
import {
  COLUMNS,
  columnPile,
  type DestinationName,
  foundationPile,
  pileName,
  type SourceName,
} from '../piles.js';
import type { Rules } from '../rules.js';
import { mulberry32 } from '../shuffle.js';
import { neverNeeded, wasteIsFixed } from './safety.js';
import { MASKS, type PositionTable } from './table.js';

/**
 * The solver's own board: mutable typed arrays, changed in place by `apply` and restored exactly by
 * `undo`, so a search of millions of positions allocates nothing per position.
 *
 * The stock and the waste are one sequence, the talon: the waste bottom to top, then the stock top to
 * bottom. Cards only ever leave it, and a recycle keeps its order, so a position of the talon is the
 * set of cards still in it plus `p`, the number of them on the waste.
 *
 * Moves are small integers. Stock and waste moves are macro-moves: "draw k times (recycling at most
 * once on the way), then play the waste's top card" is one move, so the search never spends a level on
 * a bare draw. Any game can be rearranged into tableau moves and such macro-moves, so nothing is lost.
 */

/** Cards one column can hold, face-down and face-up together (a deal has at most 6 + 13). */
const CAP = 52;
const SUIT_COUNT = 4;

export const KIND_TABLEAU_TO_FOUNDATION = 0;
export const KIND_TABLEAU_TO_TABLEAU = 1;
export const KIND_WASTE_TO_FOUNDATION = 2;
export const KIND_WASTE_TO_TABLEAU = 3;
export const KIND_FOUNDATION_TO_TABLEAU = 4;
/**
 * A run moved off face-up P onto P's twin (bare), then P home: with twins alike in the key (see
 * `hash`), the run's move alone changes nothing, and this is what it was for.
 */
export const KIND_TWIN_THEN_FOUNDATION = 5;

// A move packed in an integer: kind (3 bits), from column or suit (3), to column (3), count (5),
// talon position 1..52 of the card played (6), recycle on the way (1), the (bottom) card moved (6).
const pack = (kind: number, a: number, b: number, n: number, q: number, rec: number, card: number): number =>
  kind | (a << 3) | (b << 6) | (n << 9) | (q << 14) | (rec << 20) | (card << 21);
export const kindOf = (m: number): number => m & 7;
const fromOf = (m: number): number => (m >> 3) & 7;
const toOf = (m: number): number => (m >> 6) & 7;
const countOf = (m: number): number => (m >> 9) & 31;
const positionOf = (m: number): number => (m >> 14) & 63;
const recycleOf = (m: number): number => (m >> 20) & 1;
export const cardOfMove = (m: number): number => (m >> 21) & 63;

const rank = (card: number): number => (card % 13) + 1;
const suit = (card: number): number => (card / 13) | 0;
/** The other card of the same rank and colour. */
const twin = (card: number): number => card + (3 - 2 * suit(card)) * 13;
const red = (card: number): boolean => {
  const s = (card / 13) | 0;
  return s === 1 || s === 2;
};

// Zobrist keys, two 32-bit halves each, from a fixed generator: the same on every run.
const PARENTS = 53; // a face-up card lies on one of the 52 cards or at the bottom of its face-up run
const BOTTOM = 52;
const zobrist = (count: number, next: () => number): Int32Array => {
  const keys = new Int32Array(count);
  for (let i = 0; i < count; i++) keys[i] = next() | 0;
  return keys;
};
const random = mulberry32(0x5eed_c0de);
const Z_UP_HI = zobrist(52 * PARENTS, random);
const Z_UP_LO = zobrist(52 * PARENTS, random);
const Z_HIDDEN_HI = zobrist(COLUMNS * (CAP + 1), random);
const Z_HIDDEN_LO = zobrist(COLUMNS * (CAP + 1), random);
const Z_TALON_HI = zobrist(52, random);
const Z_TALON_LO = zobrist(52, random);
// The card a move left waiting to be used (see `must`), index must + 1; 0 (none) hashes to nothing.
const Z_MUST_HI = zobrist(2 * 64 + 1, random);
const Z_MUST_LO = zobrist(2 * 64 + 1, random);
Z_MUST_HI[0] = 0;
Z_MUST_LO[0] = 0;
/** `must` for a card taken back from its foundation. */
const COVER = 64;
const NONE = -1;

const groupHi = (group: number): number => Math.imul(group, 0x85ebca6b);
const groupLo = (group: number): number => Math.imul(group, 0xc2b2ae35);

// Where a card is, for `doomed`.
const IN_COLUMN = 0;
const IN_TALON = 1;
const AT_HOME = 2;

const MAX_MOVES = 512;
/** Talon stops at most: each of 52 cards once in this pass and once after a recycle. */
const MAX_STOPS = 2 * 52;

/** Of two columns (or -1 for none), the one further left. */
const leftmost = (b1: number, b2: number): number => (b1 < 0 || (b2 >= 0 && b2 < b1) ? b2 : b1);

export class Search {
  /** Column `a` holds its cards bottom to top at `a * CAP`; the first `hid[a]` are face down. */
  readonly col = new Int8Array(COLUMNS * CAP);
  readonly len = new Int8Array(COLUMNS);
  readonly hid = new Int8Array(COLUMNS);
  /** Cards on each foundation, by suit. */
  readonly fnd = new Int8Array(SUIT_COUNT);
  readonly tal = new Int8Array(52);
  tlen = 0;
  /** Talon cards on the waste: the waste's top card is `tal[p - 1]`. */
  p = 0;
  pass: number;
  hiddenTotal = 0;
  /**
   * What the last move obliges the next one to do, or NONE. A card X taken back from its foundation
   * (COVER + X) is only worth it if a card is laid on X next, or the card under X on its foundation
   * comes back too, so the search tries only those follow-ups. Any winning line can be rearranged
   * into one that obeys this (see `generate`), and the obligation is part of the position's key, so
   * no position is ever judged by a search that was restricted. Such a move is made only when a
   * follow-up that meets its obligation could come next (`coverable`): otherwise it leads nowhere but
   * back.
   */
  must = NONE;
  onFoundations = 0;
  hashHi = 0;
  hashLo = 0;
  readonly draw: number;
  /** Passes allowed; Infinity when unlimited. */
  readonly passes: number;
  readonly foundationToTableau: boolean;

  private readonly scratchMoves = new Int32Array(MAX_MOVES);
  private readonly scratchScores = new Int32Array(MAX_MOVES);
  private readonly tops = new Int8Array(COLUMNS);
  // The list `generate` is making, and what it found about the tableau.
  private n = 0;
  private firstEmpty = -1;
  private mustColumn = -1;
  /** The column each card is the top of, or -1 (set by `generate` while it runs). */
  private readonly topAt = new Int8Array(52).fill(-1);
  /** Waste sizes that lead, by draws alone, to waste size p in the same pass: p, p - draw, ... */
  private readonly chain = new Int32Array(53);
  /**
   * The talon positions `generate` can play from (see `talonStops`): position, recycles on the way
   * (0 or 1) and draws needed, for `stops` of them.
   */
  private readonly stopAt = new Int8Array(MAX_STOPS);
  private readonly stopRecycle = new Int8Array(MAX_STOPS);
  private readonly stopDraws = new Int8Array(MAX_STOPS);
  private stops = 0;
  /** The cards `laid` finds, marked with `stamp` the first time a `generate` call asks. */
  private readonly reach = new Float64Array(52);
  private stamp = 0;
  private reachStamped = false;
  /** For `doomed`: where each card is, and what the fixpoint found: whether it is bare, whether it can leave. */
  private readonly placeOf = new Uint8Array(52);
  private readonly bare = new Uint8Array(52);
  private readonly leaves = new Uint8Array(52);
  /** For `doomed`: piles (in `col` or `tal`), each by its lowest index and its top not yet left. */
  private readonly pileLow = new Int16Array(COLUMNS + 52);
  private readonly pileAt = new Int16Array(COLUMNS + 52);
  private readonly pileInTalon = new Uint8Array(COLUMNS + 52);
  /**
   * Whether `generate` checks the position with `doomed`: only at the start and after a move that took
   * a card from the talon or sent one home. Moves between columns and back from the foundations were
   * never seen to doom a position (4.7 million of them, on 23 hard deals), and a check costs about as
   * much as the rest of a position's work.
   */
  private recheck = true;

  /**
   * @param prune whether to use obligations (`must`), waste-size dominance (`visit`), reversible
   *   moves home (`safeMove`), twins (alike in the key, `hash`, and in moves, `addOnto`) and the
   *   check for doomed positions (`doomed`);
   *   without them the search is plainer and slower, which is what they are checked against.
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
        this.col[a * CAP + i] = card;
      });
      this.len[a] = cards.length;
      this.hid[a] = column.hidden.length;
      this.hiddenTotal += column.hidden.length;
    });
    board.foundations.forEach((cards, s) => {
      this.fnd[s] = cards.length;
      this.onFoundations += cards.length;
    });
    const talon = [...board.waste, ...board.stock.slice().reverse()];
    talon.forEach((card, i) => {
      this.tal[i] = card;
    });
    this.tlen = talon.length;
    this.p = board.waste.length;
    this.pass = board.pass;
    for (let q = 0; q <= 52; q++)
      this.chain[q] = (1 << q) | (q >= this.draw ? this.chain[q - this.draw]! : 0);
  }

  isWon(): boolean {
    return this.onFoundations === 52 || (this.hiddenTotal === 0 && this.tlen === 0);
  }

  /**
   * Hashes the position, except for the waste's size and the pass (see `visit`), so that boards
   * differing only in the order of their columns hash alike: each face-up card is keyed by the card it
   * lies on (or the bottom of its run), each column by its count of face-down cards (which fixes which
   * cards they are), the talon by its set. Foundations follow from the rest.
   *
   * With the prunings on, a face-up card is keyed by the rank and colour of the card it lies on, not
   * by which of the two twins that is (`lyingOn`): boards that differ only by which twin holds which
   * run hash alike. They are as good as each other. Say twins P and P' hold runs R and R'. If both
   * runs are there, exchanging them maps every legal move of one board to a legal move of the other
   * (neither twin can go home or take a card; moving P or P' takes its run along; a card of R stays
   * on R's cards), and the boards after them are exchanged the same way, so one wins when the other
   * does. If one of them, R', is empty, the boards are one move apart both ways (R from one twin to the
   * other). So the search never moves a run from a twin to the other alone: it lays cards on either
   * bare twin (`addOnto`) and, for a covered P whose twin is bare, makes the one move the exchange was
   * needed for, P home (KIND_TWIN_THEN_FOUNDATION). As a face-up card that is not the bottom of its
   * run can only lie on a card of the rank above and the other colour, the key comes down to the set
   * of face-up cards, which of them are bottoms, and each column's count of face-down cards.
   */
  hash(): void {
    let hi = 0;
    let lo = 0;
    const { col, len, hid, tal } = this;
    for (let a = 0; a < COLUMNS; a++) {
      const h = hid[a]!;
      hi ^= Z_HIDDEN_HI[a * (CAP + 1) + h]!;
      lo ^= Z_HIDDEN_LO[a * (CAP + 1) + h]!;
      let parent = BOTTOM;
      const end = a * CAP + len[a]!;
      for (let i = a * CAP + h; i < end; i++) {
        const card = col[i]!;
        hi ^= Z_UP_HI[card * PARENTS + this.lyingOn(parent)]!;
        lo ^= Z_UP_LO[card * PARENTS + this.lyingOn(parent)]!;
        parent = card;
      }
    }
    for (let i = 0; i < this.tlen; i++) {
      hi ^= Z_TALON_HI[tal[i]!]!;
      lo ^= Z_TALON_LO[tal[i]!]!;
    }
    this.hashHi = hi ^ Z_MUST_HI[this.must + 1]!;
    this.hashLo = lo ^ Z_MUST_LO[this.must + 1]!;
  }

  /**
   * Whether the position (hashed by `hash`) is new: no position searched before can do all it can.
   * Records it if so. A position is as good as another with the same cards in the same places when
   * it reaches the other's waste by drawing alone, in the same pass or, by recycling, a later one:
   * from waste size p a pass shows p + draw, p + 2 draw, ... and the whole talon; a recycle starts
   * again from 0.
   *
   * A position with an obligation is not judged by the same one without it, although it can do less:
   * the one without may have been searched by its safe move alone (`safeMove`), a card home that the
   * one with the obligation has just brought back in order to lay a card on it. Judged so, the card
   * could never come back (found by a test: the same position with two columns exchanged was lost).
   */
  visit(table: PositionTable): boolean {
    const { p, tlen } = this;
    const all = (1 << (tlen + 1)) - 1;
    const aligned = p % this.draw === 0 || p === tlen;
    const chain = this.chain[p]!;
    const limited = this.passes !== Number.POSITIVE_INFINITY;
    // Masks of the waste sizes that dominate p in this pass and in an earlier one.
    const now = !this.prune ? 1 << p : p === tlen || (aligned && !limited) ? all : chain;
    const earlier = !this.prune ? 1 << p : aligned ? all : chain;
    // Passes 1-3 share a slot of the table (masks 0-2), then passes 4-6, and so on.
    const group = limited ? ((this.pass - 1) / MASKS) | 0 : 0;
    const slot = limited ? (this.pass - 1) % MASKS : 0;
    for (let g = 0; g <= group; g++) {
      const at = table.find(this.hashHi ^ groupHi(g), this.hashLo ^ groupLo(g));
      if (at < 0) continue;
      const last = g === group ? slot : MASKS;
      for (let j = 0; j < last; j++) if (table.get(at, j) & earlier) return false;
      if (g === group && table.get(at, slot) & now) return false;
    }
    table.add(this.hashHi ^ groupHi(group), this.hashLo ^ groupLo(group), slot, 1 << p);
    return true;
  }

  private canFound(card: number): boolean {
    return this.fnd[suit(card)] === rank(card) - 1;
  }

  /**
   * A safe move to the foundations, if any: the only move worth trying in its position. Besides the
   * cards never needed again (`neverNeeded`), when cards may come back from the foundations a
   * top card lying on a face-up card, or a King alone in its column, is as good home as where it is:
   * it can come straight back (onto the card it leaves, or to the column it empties), so sending it
   * home loses nothing and the search never tells apart positions that differ only by such cards.
   * Not so a card from the waste: home, it may find no column to come back to, and then it keeps
   * the cards under it on their foundation. The card just taken back from its foundation (`COVER`)
   * is the exception, and so is the quick search, which takes nothing back.
   */
  safeMove(fast: boolean): number {
    const { col, len, hid } = this;
    const reversible = this.prune && this.foundationToTableau && !fast && this.must < COVER;
    for (let a = 0; a < COLUMNS; a++) {
      const l = len[a]!;
      if (l === 0) continue;
      const card = col[a * CAP + l - 1]!;
      const h = hid[a]!;
      if (
        l > h &&
        this.canFound(card) &&
        ((reversible && (l - 1 > h || (l === 1 && rank(card) === 13))) ||
          neverNeeded(card, this.fnd, this.foundationToTableau))
      ) {
        return pack(KIND_TABLEAU_TO_FOUNDATION, a, 0, 1, 0, 0, card);
      }
    }
    if (this.p > 0 && wasteIsFixed(this.draw, this.pass, this.passes)) {
      const card = this.tal[this.p - 1]!;
      if (this.canFound(card) && neverNeeded(card, this.fnd, this.foundationToTableau)) {
        return pack(KIND_WASTE_TO_FOUNDATION, 0, 0, 1, this.p, 0, card);
      }
    }
    return -1;
  }

  /**
   * Adds the move of `card` (with the cards on it, `count` in all) from column or suit `a` onto each
   * column whose top takes it: the two cards one rank higher of the other colour. They are twins
   * (same rank, same colour), and when both are tops the card goes onto the first only: a run on one
   * twin moves to the other in one move and back, so the two positions are as good as each other.
   */
  private addOnto(
    kind: number,
    a: number,
    count: number,
    q: number,
    rec: number,
    card: number,
    score: number,
  ) {
    const b1 = this.taker(card, 0);
    const b2 = this.taker(card, 1);
    const first = leftmost(b1, b2);
    const second = first === b1 ? b2 : b1;
    const from = kind === KIND_TABLEAU_TO_TABLEAU ? a : -1;
    if (first >= 0 && first !== from) {
      this.add(pack(kind, a, first, count, q, rec, card), score);
      if (this.prune) return;
    }
    if (second >= 0 && second !== from) this.add(pack(kind, a, second, count, q, rec, card), score);
  }

  /**
   * The column whose top is taker k (0 or 1) of card: the cards one rank higher of the other colour,
   * by suit. Black suits 0 and 3 take a red card, red suits 1 and 2 a black one.
   */
  private taker(card: number, k: number): number {
    const suits = red(card) ? 0 : 1;
    return this.topAt[(k === 0 ? suits : 3 - suits) * 13 + rank(card)]!;
  }

  /** Whether move m meets the obligation left by the last move (see `must`). */
  private meets(m: number): boolean {
    const kind = kindOf(m);
    if (
      kind !== KIND_TABLEAU_TO_FOUNDATION &&
      kind !== KIND_WASTE_TO_FOUNDATION &&
      toOf(m) === this.mustColumn
    )
      return true;
    const must = this.must;
    return kind === KIND_FOUNDATION_TO_TABLEAU && suit(cardOfMove(m)) === suit(must - COVER);
  }

  /** Adds a move to the list `generate` is making, if it meets the obligation. */
  private add(m: number, score: number): void {
    if (this.must !== NONE && !this.meets(m)) return;
    this.scratchMoves[this.n] = m;
    this.scratchScores[this.n++] = score;
  }

  /** Adds the moves of the talon's card at position q, reached by `draws` draws and `rec` recycles. */
  private addFromTalon(q: number, rec: number, draws: number): void {
    const card = this.tal[q - 1]!;
    const cost = draws + rec * 30;
    if (this.canFound(card)) this.add(pack(KIND_WASTE_TO_FOUNDATION, 0, 0, 1, q, rec, card), 900 - cost);
    if (rank(card) === 13) {
      if (this.firstEmpty >= 0)
        this.add(pack(KIND_WASTE_TO_TABLEAU, 0, this.firstEmpty, 1, q, rec, card), 600 - cost);
      return;
    }
    this.addOnto(KIND_WASTE_TO_TABLEAU, 0, 1, q, rec, card, 600 - cost);
  }

  /**
   * Lists the talon positions whose card some number of draws (and at most one recycle, when one is
   * left) brings to the waste's top, fewest draws first.
   */
  private talonStops(): void {
    this.stops = 0;
    const { tlen, p, draw } = this;
    if (tlen === 0) return;
    let q = p;
    let draws = 0;
    if (q === 0) {
      q = Math.min(draw, tlen);
      draws = 1;
    }
    for (;;) {
      this.stop(q, 0, draws);
      if (q >= tlen) break;
      q = Math.min(q + draw, tlen);
      draws++;
    }
    if (this.pass < this.passes) {
      const before = Math.ceil((tlen - p) / draw);
      for (let r = 1; ; r++) {
        const q2 = Math.min(r * draw, tlen);
        const thisPass = q2 >= p && ((q2 - p) % draw === 0 || q2 === tlen);
        if (!thisPass) this.stop(q2, 1, before + r);
        if (q2 >= tlen) break;
      }
    }
  }

  private stop(q: number, rec: number, draws: number): void {
    const k = this.stops++;
    this.stopAt[k] = q;
    this.stopRecycle[k] = rec;
    this.stopDraws[k] = draws;
  }

  /** Whether card x is face up in a column or the card of a talon stop: the next move can play it. */
  private laid(x: number): boolean {
    if (!this.reachStamped) {
      this.reachStamped = true;
      const stamp = ++this.stamp;
      const { col, len, hid, reach } = this;
      for (let a = 0; a < COLUMNS; a++)
        for (let i = a * CAP + hid[a]!, end = a * CAP + len[a]!; i < end; i++) reach[col[i]!] = stamp;
      for (let k = 0; k < this.stops; k++) reach[this.tal[this.stopAt[k]! - 1]!] = stamp;
    }
    return this.reach[x] === this.stamp;
  }

  private onTop(x: number): boolean {
    return this.fnd[suit(x)] === rank(x);
  }

  /**
   * Whether card x, taken back from its foundation onto column b, could be followed by what makes
   * it worth it (obligation COVER + x): a card laid on it (one rank lower, of the other colour; not
   * when x's twin is a top further left, which takes it instead, see `addOnto`), or the card under it
   * coming back from its foundation onto a top (one of the two cards of x's rank and the other
   * colour), itself worth it. An Ace never is.
   */
  private coverable(x: number, b: number): boolean {
    const r = rank(x);
    if (r === 1) return false;
    const other = red(x) ? 0 : 1; // the first suit of the other colour; 3 - other is the second
    const rival = this.topAt[twin(x)]!;
    if (
      (rival < 0 || rival > b) &&
      (this.covers(other * 13 + r - 2, b) || this.covers((3 - other) * 13 + r - 2, b))
    )
      return true;
    const to = leftmost(this.taker(x - 1, 0), this.taker(x - 1, 1));
    return to >= 0 && this.coverable(x - 1, to);
  }

  /** Whether card k can be laid next on a card just taken back onto column b (see `coverable`). */
  private covers(k: number, b: number): boolean {
    return this.laid(k) || (this.onTop(k) && this.coverable(k, b));
  }

  /**
   * Whether some card can never leave the place it is in, so that the game is lost: every card must
   * go home. The cards lie in piles they leave from the top down: a column's face-down cards and the
   * run on them (its bottom card taking the run along), and the talon; in the last pass the waste,
   * whose top alone plays, and each group of `draw` cards the stock deals at once, whose last lands
   * on top; before it, each talon card alone. A pile's top leaves by going home (every lower card of
   * its suit has left), onto a card one rank higher of the other colour (bare in a column, out of the
   * talon, or on its foundation when cards may come back) or, a King, to an empty column. Each card
   * that can ever leave does so after what it needs, so the least fixpoint of those conditions holds
   * it, and more (a King is taken to find an empty column). So a card outside it can truly never
   * leave. A card under another is neither bare nor gone while that one stays: it cannot serve it.
   */
  doomed(): boolean {
    const { col, len, hid, tal, placeOf, bare, leaves, p, tlen, draw } = this;
    const { pileLow, pileAt, pileInTalon } = this;
    let piles = 0;
    const pile = (inTalon: number, low: number, at: number) => {
      pileInTalon[piles] = inTalon;
      pileLow[piles] = low;
      pileAt[piles++] = at;
    };
    placeOf.fill(AT_HOME);
    for (let a = 0; a < COLUMNS; a++) {
      const h = hid[a]!;
      for (let i = 0; i < len[a]!; i++) {
        const card = col[a * CAP + i]!;
        placeOf[card] = IN_COLUMN;
        bare[card] = i >= h ? 1 : 0;
        leaves[card] = i > h ? 1 : 0;
      }
      if (len[a]! > 0) pile(0, a * CAP, a * CAP + h);
    }
    const last = this.pass >= this.passes;
    for (let i = 0; i < tlen; i++) {
      placeOf[tal[i]!] = IN_TALON;
      leaves[tal[i]!] = 0;
      if (!last) pile(1, i, i);
    }
    if (last) {
      if (p > 0) pile(1, 0, p - 1);
      for (let low = p; low < tlen; low += draw) pile(1, low, Math.min(low + draw, tlen) - 1);
    }
    for (let changed = true; changed; ) {
      changed = false;
      for (let k = 0; k < piles; k++) {
        const cards = pileInTalon[k] ? tal : col;
        const low = pileLow[k]!;
        let at = pileAt[k]!;
        while (at >= low && this.canLeave(cards[at]!)) {
          leaves[cards[at]!] = 1;
          if (--at >= low) bare[cards[at]!] = 1;
          changed = true;
        }
        pileAt[k] = at;
      }
    }
    for (let k = 0; k < piles; k++) if (pileAt[k]! >= pileLow[k]!) return true;
    return false;
  }

  /** For `doomed`: whether the top of a pile has somewhere to go (see there). */
  private canLeave(card: number): boolean {
    if (rank(card) === 13) return true;
    const s = suit(card);
    let home = true;
    for (let x = s * 13 + this.fnd[s]!; x < card && home; x++) home = this.leaves[x] === 1;
    if (home) return true;
    const other = red(card) ? 0 : 1;
    return this.holds(other * 13 + rank(card)) || this.holds((3 - other) * 13 + rank(card));
  }

  /** For `doomed`: whether card t can be a column's top, for a card to go onto. */
  private holds(t: number): boolean {
    const place = this.placeOf[t]!;
    if (place === AT_HOME) return this.foundationToTableau;
    return (place === IN_COLUMN ? this.bare[t] : this.leaves[t]) === 1;
  }

  /**
   * Writes the moves worth trying at `out[off..]`, most promising first; returns how many.
   *
   * `fast` leaves out moves that only rearrange the tableau unless they turn a card up or free a card
   * for its foundation, and moves back from the foundations: far fewer positions, and most won deals
   * are still found, but a search that fails that way proves nothing.
   *
   * After a move that left an obligation (`must`), only the moves that meet it. That loses no win:
   * in a winning line, a card taken back from its foundation can be taken back later, just before a
   * card is laid on it or the card under it comes back; if neither happens it was never needed off its
   * foundation. The move cannot make a safe move appear other than sending that same card home.
   */
  generate(out: Int32Array, off: number, fast: boolean): number {
    const safe = this.safeMove(fast);
    if (safe >= 0) {
      out[off] = safe;
      return 1;
    }
    if (this.prune && this.recheck && !fast && this.doomed()) return 0;
    this.n = 0;
    const { col, len, hid, tops, fnd, must } = this;
    this.firstEmpty = -1;
    this.mustColumn = -1;
    for (let b = 0; b < COLUMNS; b++) {
      const top = len[b]! > 0 ? col[b * CAP + len[b]! - 1]! : -1;
      tops[b] = top;
      if (len[b] === 0 && this.firstEmpty < 0) this.firstEmpty = b;
      if (must !== NONE && top === must % 64) this.mustColumn = b;
      if (top >= 0) this.topAt[top] = b;
    }
    const firstEmpty = this.firstEmpty;
    this.talonStops();
    this.reachStamped = false;

    // Tableau to foundation, and tableau to tableau.
    for (let a = 0; a < COLUMNS; a++) {
      const l = len[a]!;
      const h = hid[a]!;
      if (l === 0) continue;
      const top = col[a * CAP + l - 1]!;
      if (this.canFound(top))
        this.add(pack(KIND_TABLEAU_TO_FOUNDATION, a, 0, 1, 0, 0, top), l - 1 === h && h > 0 ? 1100 : 1000);
      for (let i = h; i < l; i++) {
        const card = col[a * CAP + i]!;
        const count = l - i;
        if (i > h) {
          // A run off face-up P: the only other card that takes it is P's twin.
          const parent = col[a * CAP + i - 1]!;
          const to = this.topAt[twin(parent)]!;
          if (to < 0) continue;
          // With twins alike in the key the run's move alone changes nothing (see `hash`): it is only
          // made to send P home, in the same move. The quick search makes it only for that, too.
          const home = this.canFound(parent);
          if (this.prune) {
            if (home) this.add(pack(KIND_TWIN_THEN_FOUNDATION, a, to, count, 0, 0, parent), 500);
          } else if (home || !fast)
            this.add(pack(KIND_TABLEAU_TO_TABLEAU, a, to, count, 0, 0, card), home ? 500 : 200);
          continue;
        }
        const score = h > 0 ? 800 + h : 300;
        if (rank(card) === 13) {
          // A King's run to an empty column: pointless from a column with nothing face down under it.
          if (i > 0 && firstEmpty >= 0)
            this.add(pack(KIND_TABLEAU_TO_TABLEAU, a, firstEmpty, count, 0, 0, card), score);
          continue;
        }
        this.addOnto(KIND_TABLEAU_TO_TABLEAU, a, count, 0, 0, card, score);
      }
    }

    // The talon: every card that some number of draws (and at most one recycle) brings to the waste's top.
    for (let k = 0; k < this.stops; k++)
      this.addFromTalon(this.stopAt[k]!, this.stopRecycle[k]!, this.stopDraws[k]!);

    // Foundation to tableau.
    if (this.foundationToTableau && !fast) {
      for (let s = 0; s < SUIT_COUNT; s++) {
        const height = fnd[s]!;
        if (height === 0) continue;
        const card = s * 13 + height - 1;
        const to = height === 13 ? firstEmpty : leftmost(this.taker(card, 0), this.taker(card, 1));
        if (to < 0 || (this.prune && !this.coverable(card, to))) continue;
        if (height === 13) {
          this.add(pack(KIND_FOUNDATION_TO_TABLEAU, s, firstEmpty, 1, 0, 0, card), 50);
          continue;
        }
        this.addOnto(KIND_FOUNDATION_TO_TABLEAU, s, 1, 0, 0, card, 100);
      }
    }

    for (let b = 0; b < COLUMNS; b++) if (tops[b]! >= 0) this.topAt[tops[b]!] = -1;
    const moves = this.scratchMoves;
    const scores = this.scratchScores;
    const n = this.n;
    // Most promising first (insertion sort: lists are short), ties in generation order.
    for (let i = 1; i < n; i++) {
      const m = moves[i]!;
      const sc = scores[i]!;
      let j = i - 1;
      while (j >= 0 && scores[j]! < sc) {
        moves[j + 1] = moves[j]!;
        scores[j + 1] = scores[j]!;
        j--;
      }
      moves[j + 1] = m;
      scores[j + 1] = sc;
    }
    for (let i = 0; i < n; i++) out[off + i] = moves[i]!;
    return n;
  }

  private revealIfBare(a: number): number {
    const h = this.hid[a]!;
    if (this.len[a] === h && h > 0) {
      this.hid[a] = h - 1;
      this.hiddenTotal--;
      this.toggleHidden(a, h);
      this.toggleHidden(a, h - 1);
      this.toggleUp(this.col[a * CAP + h - 1]!, BOTTOM);
      return 1;
    }
    return 0;
  }

  /** What a face-up card lying on `parent` is keyed by (see `hash`): with the prunings, P and its twin are one. */
  private lyingOn(parent: number): number {
    return parent === BOTTOM || !this.prune ? parent : Math.min(parent, twin(parent));
  }

  // Keep `hashHi`/`hashLo` up to date as `apply` changes the position (see `hash`).
  private toggleUp(card: number, parent: number): void {
    this.hashHi ^= Z_UP_HI[card * PARENTS + this.lyingOn(parent)]!;
    this.hashLo ^= Z_UP_LO[card * PARENTS + this.lyingOn(parent)]!;
  }

  private toggleHidden(a: number, h: number): void {
    this.hashHi ^= Z_HIDDEN_HI[a * (CAP + 1) + h]!;
    this.hashLo ^= Z_HIDDEN_LO[a * (CAP + 1) + h]!;
  }

  private toggleTalon(card: number): void {
    this.hashHi ^= Z_TALON_HI[card]!;
    this.hashLo ^= Z_TALON_LO[card]!;
  }

  private setMust(must: number): void {
    this.hashHi ^= Z_MUST_HI[this.must + 1]! ^ Z_MUST_HI[must + 1]!;
    this.hashLo ^= Z_MUST_LO[this.must + 1]! ^ Z_MUST_LO[must + 1]!;
    this.must = must;
  }

  /** What the card at index i of column a lies on, for the hash: the card below, or BOTTOM. */
  private parentAt(a: number, i: number): number {
    return i > this.hid[a]! ? this.col[a * CAP + i - 1]! : BOTTOM;
  }

  /** What a card laid on column b lies on: its top card, or BOTTOM when it is empty. */
  private landing(b: number): number {
    return this.len[b]! > 0 ? this.col[b * CAP + this.len[b]! - 1]! : BOTTOM;
  }

  private takeFromTalon(q: number, rec: number): void {
    const tal = this.tal;
    for (let i = q - 1; i < this.tlen - 1; i++) tal[i] = tal[i + 1]!;
    this.tlen--;
    this.p = q - 1;
    this.pass += rec;
  }

  private push(b: number, card: number): void {
    this.col[b * CAP + this.len[b]!] = card;
    this.len[b]!++;
  }

  /** Moves the top n cards of column a onto column b, keeping the hash. */
  private moveRun(a: number, b: number, n: number): void {
    const from = a * CAP + this.len[a]! - n;
    const to = b * CAP + this.len[b]!;
    const card = this.col[from]!;
    this.toggleUp(card, this.parentAt(a, this.len[a]! - n));
    this.toggleUp(card, this.landing(b));
    for (let i = 0; i < n; i++) this.col[to + i] = this.col[from + i]!;
    this.len[a]! -= n;
    this.len[b]! += n;
  }

  /**
   * Plays a move; returns 1 if it turned a face-down card up (what `undo` needs besides the move, the
   * waste's size, the pass and the obligation before it).
   */
  apply(m: number): number {
    const card = cardOfMove(m);
    const kind = kindOf(m);
    this.setMust(NONE);
    this.recheck = kind !== KIND_TABLEAU_TO_TABLEAU && kind !== KIND_FOUNDATION_TO_TABLEAU;
    switch (kind) {
      case KIND_TWIN_THEN_FOUNDATION: {
        // `card` is P; the run on it goes to P's twin (its key does not change), then P goes home.
        const a = fromOf(m);
        const n = countOf(m);
        this.moveRun(a, toOf(m), n);
        this.toggleUp(card, this.parentAt(a, this.len[a]! - 1));
        this.len[a]!--;
        this.fnd[suit(card)]!++;
        this.onFoundations++;
        return this.revealIfBare(a);
      }
      case KIND_TABLEAU_TO_FOUNDATION: {
        const a = fromOf(m);
        this.toggleUp(card, this.parentAt(a, this.len[a]! - 1));
        this.len[a]!--;
        this.fnd[suit(card)]!++;
        this.onFoundations++;
        return this.revealIfBare(a);
      }
      case KIND_TABLEAU_TO_TABLEAU: {
        const a = fromOf(m);
        const b = toOf(m);
        const n = countOf(m);
        this.moveRun(a, b, n);
        return this.revealIfBare(a);
      }
      case KIND_WASTE_TO_FOUNDATION:
        this.takeFromTalon(positionOf(m), recycleOf(m));
        this.toggleTalon(card);
        this.fnd[suit(card)]!++;
        this.onFoundations++;
        return 0;
      case KIND_WASTE_TO_TABLEAU:
        this.takeFromTalon(positionOf(m), recycleOf(m));
        this.toggleTalon(card);
        this.toggleUp(card, this.landing(toOf(m)));
        this.push(toOf(m), card);
        return 0;
      default:
        this.fnd[suit(card)]!--;
        this.onFoundations--;
        this.toggleUp(card, this.landing(toOf(m)));
        this.push(toOf(m), card);
        if (this.prune) this.setMust(COVER + card);
        return 0;
    }
  }

  /**
   * Takes a move back, given what `apply` returned and the waste's size, pass, obligation and hash
   * before it.
   */
  undo(m: number, revealed: number, p: number, pass: number, must: number, hi: number, lo: number): void {
    const card = cardOfMove(m);
    this.must = must;
    this.hashHi = hi;
    this.hashLo = lo;
    const kind = kindOf(m);
    if (
      kind === KIND_TABLEAU_TO_FOUNDATION ||
      kind === KIND_TABLEAU_TO_TABLEAU ||
      kind === KIND_TWIN_THEN_FOUNDATION
    ) {
      const a = fromOf(m);
      if (revealed) {
        this.hid[a]!++;
        this.hiddenTotal++;
      }
      if (kind !== KIND_TABLEAU_TO_TABLEAU) {
        this.push(a, card);
        this.fnd[suit(card)]!--;
        this.onFoundations--;
      }
      if (kind !== KIND_TABLEAU_TO_FOUNDATION) {
        const b = toOf(m);
        const n = countOf(m);
        const from = b * CAP + this.len[b]! - n;
        const to = a * CAP + this.len[a]!;
        for (let i = 0; i < n; i++) this.col[to + i] = this.col[from + i]!;
        this.len[a]! += n;
        this.len[b]! -= n;
      }
      return;
    }
    if (kind === KIND_FOUNDATION_TO_TABLEAU) {
      this.len[toOf(m)]!--;
      this.fnd[suit(card)]!++;
      this.onFoundations++;
      return;
    }
    if (kind === KIND_WASTE_TO_FOUNDATION) {
      this.fnd[suit(card)]!--;
      this.onFoundations--;
    } else {
      this.len[toOf(m)]!--;
    }
    const q = positionOf(m);
    const tal = this.tal;
    for (let i = this.tlen; i >= q; i--) tal[i] = tal[i - 1]!;
    tal[q - 1] = card;
    this.tlen++;
    this.p = p;
    this.pass = pass;
  }

  /**
   * The moves a player makes for packed move `m`, given the waste's size and talon length before it:
   * a macro-move becomes its draws, its recycle and its play from the waste.
   */
  expand(m: number, p: number, tlen: number): PlayedMove[] {
    const card = cardOfMove(m);
    const column = (a: number) => pileName(columnPile(a)) as DestinationName;
    const foundation = pileName(foundationPile(suit(card))) as DestinationName;
    const kind = kindOf(m);
    const move = (from: SourceName, to: DestinationName, count = 1): PlayedMove => ({
      type: 'move',
      from,
      to,
      count,
    });
    switch (kind) {
      case KIND_TABLEAU_TO_FOUNDATION:
        return [move(column(fromOf(m)), foundation)];
      case KIND_TABLEAU_TO_TABLEAU:
        return [move(column(fromOf(m)), column(toOf(m)), countOf(m))];
      case KIND_TWIN_THEN_FOUNDATION:
        return [move(column(fromOf(m)), column(toOf(m)), countOf(m)), move(column(fromOf(m)), foundation)];
      case KIND_FOUNDATION_TO_TABLEAU:
        return [move(foundation, column(toOf(m)))];
      default: {
        const q = positionOf(m);
        const draws: PlayedMove[] = [];
        const drawN = (k: number) => {
          for (let i = 0; i < k; i++) draws.push({ type: 'draw' });
        };
        if (recycleOf(m)) {
          drawN(Math.ceil((tlen - p) / this.draw));
          draws.push({ type: 'recycle' });
          drawN(Math.ceil(q / this.draw));
        } else {
          drawN(Math.ceil((q - p) / this.draw));
        }
        draws.push(move('waste', kind === KIND_WASTE_TO_FOUNDATION ? foundation : column(toOf(m))));
        return draws;
      }
    }
  }

  /**
   * With nothing face down and the talon empty every card is in descending runs, and the lowest card
   * not yet home is always on top of a column: play the tops home until the game is won.
   */
  finish(): PlayedMove[] {
    const line: PlayedMove[] = [];
    while (this.onFoundations < 52) {
      let played = false;
      for (let a = 0; a < COLUMNS; a++) {
        const l = this.len[a]!;
        if (l === 0) continue;
        const card = this.col[a * CAP + l - 1]!;
        if (!this.canFound(card)) continue;
        const m = pack(KIND_TABLEAU_TO_FOUNDATION, a, 0, 1, 0, 0, card);
        line.push(...this.expand(m, this.p, this.tlen));
        this.apply(m);
        played = true;
      }
      if (!played) throw new Error('finish called on a position that does not finish by itself');
    }
    return line;
  }

  /** The cards of column `a`, bottom to top (for tests and hints). */
  column(a: number): Card[] {
    return Array.from(this.col.subarray(a * CAP, a * CAP + this.len[a]!));
  }
}
