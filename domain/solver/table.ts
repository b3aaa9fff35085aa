/** Masks a slot of the table holds: one per pass, for passes 1-3, 4-6, and so on. */
export const MASKS = 3;
const STRIDE = 2 + MASKS;

/**
 * An open-addressing hash table from 64-bit keys (two 32-bit halves) to `MASKS` 32-bit masks, for
 * the solver's positions: the key is a position without its waste size and pass, each mask the waste
 * sizes with which it was searched in one pass. Far faster and leaner than a `Map` of strings, and
 * exact up to 64-bit collisions (about 1 in 10^7 for a search of 10^6 positions). A slot keeps its
 * key halves and masks side by side, so a lookup touches one or two cache lines; a key of 0, 0 is
 * stored as 0, 1 so that 0, 0 can mark a free slot. It grows when three quarters full: a search's
 * time goes largely into lookups that miss the caches, and a smaller table misses less.
 */
export class PositionTable {
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(log2Capacity = 14) {
    this.slots = emptySlots((1 << log2Capacity) * STRIDE);
    this.mask = (1 << log2Capacity) - 1;
  }

  /** Gives the table's memory to the next table (see `emptySlots`): this one is not used again. */
  release(): void {
    const whole = new Int32Array(this.slots.buffer);
    if (whole.length <= SPARE_MOST && (spare === undefined || whole.length > spare.length)) spare = whole;
  }

  /** Where the key is, or the free slot where it would go. */
  private locate(hi: number, lo: number): number {
    const slots = this.slots;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const at = i * STRIDE;
      const h = slots[at]!;
      const l = slots[at + 1]!;
      if ((h === hi && l === lo) || (h === 0 && l === 0)) return at;
      i = (i + 1) & this.mask;
    }
  }

  /** The slot of a key, or -1. */
  find(hi: number, lo: number): number {
    const at = this.locate(hi, hi === 0 && lo === 0 ? 1 : lo);
    return this.slots[at] === 0 && this.slots[at + 1] === 0 ? -1 : at;
  }

  /** The slot of a key, added with empty masks if it was not there: one lookup for both. */
  claim(hi: number, lo: number): number {
    const key = hi === 0 && lo === 0 ? 1 : lo;
    const at = this.locate(hi, key);
    if (this.slots[at] !== 0 || this.slots[at + 1] !== 0) return at;
    this.slots[at] = hi;
    this.slots[at + 1] = key;
    if (++this.size * 4 <= this.mask * 3) return at;
    this.grow();
    return this.locate(hi, key);
  }

  /** Mask number `k` of the slot at `at`. */
  get(at: number, k: number): number {
    return this.slots[at + 2 + k]!;
  }

  /** Adds `bits` to mask number `k` of the slot at `at`. */
  add(at: number, k: number, bits: number): void {
    this.slots[at + 2 + k]! |= bits;
  }

  private grow(): void {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array((this.mask + 1) * STRIDE);
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at] === 0 && old[at + 1] === 0) continue;
      const to = this.locate(old[at]!, old[at + 1]!);
      for (let j = 0; j < STRIDE; j++) this.slots[to + j] = old[at + j]!;
    }
  }
}

/** The largest table whose memory is kept for the next one: 2^16 slots, 1.3 MB. */
const SPARE_MOST = (1 << 16) * STRIDE;
let spare: Int32Array | undefined;

/**
 * `length` zeroed slots, in the memory a released table left if it is big enough: a search starts
 * with a table of 2^16 slots, and allocating it afresh (and collecting it after) took half the time
 * of a search that ends in a few moves, several times what clearing it takes. A search is synchronous
 * and releases its table when it returns, so one spare at a time is enough.
 */
function emptySlots(length: number): Int32Array {
  const kept = spare;
  if (kept === undefined || kept.length < length) return new Int32Array(length);
  spare = undefined;
  const slots = kept.length === length ? kept : kept.subarray(0, length);
  slots.fill(0);
  return slots;
}
