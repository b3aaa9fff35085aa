/**
 * An open-addressing hash table from 64-bit keys (two 32-bit halves) to a 32-bit mask, for the
 * solver's positions: the key is a position without its waste size, the mask the waste sizes with
 * which it was searched. Far faster and leaner than a `Map` of strings, and exact up to 64-bit
 * collisions (about 1 in 10^7 for a search of 10^6 positions). A slot is three numbers side by side
 * (key halves, mask; a mask of 0 marks it free), so a lookup touches one cache line.
 */
const STRIDE = 4;

export class PositionTable {
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(log2Capacity = 14) {
    this.slots = new Int32Array((1 << log2Capacity) * STRIDE);
    this.mask = (1 << log2Capacity) - 1;
  }

  /** Where the key is, or the free slot where it would go. */
  private find(hi: number, lo: number): number {
    const slots = this.slots;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const at = i * STRIDE;
      if (slots[at + 2] === 0 || (slots[at] === hi && slots[at + 1] === lo)) return at;
      i = (i + 1) & this.mask;
    }
  }

  /** The mask recorded for a key (0 when none). */
  get(hi: number, lo: number): number {
    return this.slots[this.find(hi, lo) + 2]!;
  }

  /** Adds `bits` (not 0) to the mask of a key. */
  add(hi: number, lo: number, bits: number): void {
    const at = this.find(hi, lo);
    const slots = this.slots;
    if (slots[at + 2] !== 0) {
      slots[at + 2]! |= bits;
      return;
    }
    slots[at] = hi;
    slots[at + 1] = lo;
    slots[at + 2] = bits;
    if (++this.size * 2 > this.mask) this.grow();
  }

  private grow(): void {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array((this.mask + 1) * STRIDE);
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at + 2] === 0) continue;
      const to = this.find(old[at]!, old[at + 1]!);
      this.slots[to] = old[at]!;
      this.slots[to + 1] = old[at + 1]!;
      this.slots[to + 2] = old[at + 2]!;
    }
  }
}
