import { KING } from '../cards.js';
import { COLUMNS } from '../piles.js';
import { RANK } from './card-tables.js';
import { faceUpHi, faceUpLo, RUN_BOTTOM } from './key.js';
import { COLUMN_ROOM, NO_CARD, type Position } from './position.js';
import { MASKS, PositionTable } from './table.js';
import { TalonStops } from './talon.js';

const groupHi = (group: number): number => Math.imul(group, 0x85ebca6b);
const groupLo = (group: number): number => Math.imul(group, 0xc2b2ae35);

/**
 * The positions searched so far, and whether a new one is worth searching: not when one searched
 * before can do all it can.
 *
 * A position is as good as another with the same cards in the same places (the same key, see
 * `key.ts`) when it reaches the other's waste by drawing alone, in the same pass or, by recycling, a
 * later one: from waste size w a pass shows w + draw, w + 2 draw, ... and the whole talon; a recycle
 * starts again from 0. With unlimited passes the pass does not matter.
 *
 * A position with a card just taken back is not judged by the same one without it, although it can do
 * less: the one without may have been searched by its safe move alone (`safeMove`), a card home that
 * the one with the obligation has just brought back in order to lay a card on it. Judged so, the card
 * could never come back (found by a test: the same position with two columns exchanged was lost).
 * The card taken back is part of the key, so that never happens.
 *
 * When cards may come back from the foundations, a position is also as good as itself with a column's
 * top card in it, one that could go home, lying on a face-up card (or a King alone in its column):
 * the position with that card home can follow any line of the other, move for move, taking the card
 * back only where the other lays a card on it or brings back the card under it on its foundation
 * (onto the same card, or a King to the empty column), and from then on the two are the same. A move
 * of that card alone, or home, it leaves out; a run carrying it moves without it; other moves are
 * the same, and the card it lies on is bare rather than covered, which only helps. So a position
 * with such a top is not searched when the same with the top home was (`isNew`): on seed 173, two
 * in five of the positions the search would have searched. Not with a card just taken back, nor
 * without cards back from the foundations, where a card home holds nothing.
 *
 * That leaves no win out although the position with the card home may still be being searched (an
 * ancestor): count a line's moves other than moves back from the foundations. The line from a
 * position with the card home has no more of them than the line it follows, and every move the
 * search makes to a position judged this way is one of them (a move back from the foundation leaves
 * an obligation, and such positions are not judged so). So a shortest line from the searched
 * position is shorter than the line from the one the search came from, and the search cannot go round
 * (docs/solver.md). The rule of cards that could come straight back, sent home alone as safe moves,
 * fails that: the card home may have to come back and go home again, so the line is no shorter.
 *
 * With unlimited passes, a talon move reaches the same position from every waste size that reaches
 * its stop: the card at talon position `at` leaves and the waste is the `at - 1` cards before it,
 * and the pass does not count. So a position that the table finds new although the same cards were
 * searched with another waste size (one that does not reach its waste: a different phase of the
 * draws, or a later waste in the same one) need not list the talon moves that one listed
 * (`coveredStops`): on seeds 1260, 1901, 2397, 2931, 3785 and 4112 (lost) a fifth of the moves
 * the search tried. That leaves no win out: the first position that listed such a move made it, to
 * the same position (docs/solver.md). Not one judged by a top card home, which listed nothing: the
 * table notes those waste sizes apart (mask 1, which unlimited passes leave free).
 */
export class SeenPositions {
  readonly table: PositionTable;
  /** Waste sizes that lead, by draws alone, to waste size w in the same pass: w, w - draw, ... */
  private readonly chain = new Int32Array(53);

  constructor(
    draw: number,
    private readonly prune: boolean,
    log2Capacity: number,
  ) {
    this.table = new PositionTable(log2Capacity);
    for (let w = 0; w <= 52; w++) this.chain[w] = (1 << w) | (w >= draw ? this.chain[w - draw]! : 0);
  }

  /** The slot where `isNew` last recorded a position. */
  private recordedAt = -1;
  private readonly stops = new TalonStops();

  /**
   * The talon stops (bit `at`) whose moves the position `isNew` has just found new need not list:
   * with unlimited passes, those the same position with another waste size, searched before it,
   * listed (see the class).
   */
  coveredStops(position: Position): number {
    if (!this.prune || position.passes !== Number.POSITIVE_INFINITY) return 0;
    const { wasteSize, talonSize, draw } = position;
    let others = this.table.get(this.recordedAt, 0) & ~this.table.get(this.recordedAt, 1) & ~(1 << wasteSize);
    let covered = 0;
    const stops = this.stops;
    while (others !== 0) {
      const w = 31 - Math.clz32(others);
      others &= ~(1 << w);
      stops.listFrom(w, talonSize, draw, true);
      for (let k = 0; k < stops.count; k++) covered |= 1 << stops.at[k]!;
    }
    return covered;
  }

  /** Gives the table's memory to the next search's (see `PositionTable.release`). */
  release(): void {
    this.table.release();
  }

  get size(): number {
    return this.table.size;
  }

  /**
   * Whether the position is new (see the class); records it if so. Recorded, it may still be judged
   * by the same with a top card home, and then it is not searched: it is as good as that one.
   */
  isNew(position: Position): boolean {
    if (!this.isNewKey(position, position.keyHi, position.keyLo, true)) return false;
    if (!this.prune || !position.foundationToTableau || position.takenBack !== NO_CARD) return true;
    const { cards, length, faceDown } = position;
    for (let a = 0; a < COLUMNS; a++) {
      const l = length[a]!;
      const down = faceDown[a]!;
      if (l <= down) continue;
      const at = a * COLUMN_ROOM + l - 1;
      const card = cards[at]!;
      if (!position.canGoHome(card)) continue;
      let under: number;
      if (l - 1 > down) under = cards[at - 1]!;
      else if (l === 1 && RANK[card] === KING) under = RUN_BOTTOM;
      else continue;
      const hi = position.keyHi ^ faceUpHi(position, card, under);
      const lo = position.keyLo ^ faceUpLo(position, card, under);
      if (!this.isNewKey(position, hi, lo, false)) {
        // Not searched: with unlimited passes mask 1 says so, for `coveredStops`.
        if (position.passes === Number.POSITIVE_INFINITY)
          this.table.add(this.recordedAt, 1, 1 << position.wasteSize);
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the position with key `keyHi`, `keyLo` and this position's waste and pass is new (no
   * position searched before reaches its waste by drawing); recorded if so and `record`.
   */
  private isNewKey(position: Position, keyHi: number, keyLo: number, record: boolean): boolean {
    const { wasteSize, talonSize, pass } = position;
    const table = this.table;
    const all = (1 << (talonSize + 1)) - 1;
    const aligned = wasteSize % position.draw === 0 || wasteSize === talonSize;
    const chain = this.chain[wasteSize]!;
    const limited = position.passes !== Number.POSITIVE_INFINITY;
    // Masks of the waste sizes that dominate this one in this pass and in an earlier one.
    const now = !this.prune ? 1 << wasteSize : wasteSize === talonSize || (aligned && !limited) ? all : chain;
    const earlier = !this.prune ? 1 << wasteSize : aligned ? all : chain;
    // Passes 1-3 share a slot of the table (masks 0-2), then passes 4-6, and so on.
    const group = limited ? ((pass - 1) / MASKS) | 0 : 0;
    const slot = limited ? (pass - 1) % MASKS : 0;
    for (let g = 0; g < group; g++) {
      const at = table.find(keyHi ^ groupHi(g), keyLo ^ groupLo(g));
      if (at < 0) continue;
      for (let j = 0; j < MASKS; j++) if (table.get(at, j) & earlier) return false;
    }
    const hi = keyHi ^ groupHi(group);
    const lo = keyLo ^ groupLo(group);
    const at = record ? table.claim(hi, lo) : table.find(hi, lo);
    if (at < 0) return true;
    for (let j = 0; j < slot; j++) if (table.get(at, j) & earlier) return false;
    if (table.get(at, slot) & now) return false;
    if (record) {
      table.add(at, slot, 1 << wasteSize);
      this.recordedAt = at;
    }
    return true;
  }
}
