import type { Position } from './position.js';
import { MASKS, PositionTable } from './table.js';

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

  /** Gives the table's memory to the next search's (see `PositionTable.release`). */
  release(): void {
    this.table.release();
  }

  get size(): number {
    return this.table.size;
  }

  /** Whether the position is new (see the class); records it if so. */
  isNew(position: Position): boolean {
    const { wasteSize, talonSize, keyHi, keyLo, pass } = position;
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
    const at = table.claim(keyHi ^ groupHi(group), keyLo ^ groupLo(group));
    for (let j = 0; j < slot; j++) if (table.get(at, j) & earlier) return false;
    if (table.get(at, slot) & now) return false;
    table.add(at, slot, 1 << wasteSize);
    return true;
  }
}
