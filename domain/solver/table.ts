/**
 * An open-addressing hash table from 64-bit position keys (two 32-bit halves) to a small number:
 * the fewest passes through the deck with which the position was reached. Far faster and leaner than
 * a `Map` of strings, and exact up to 64-bit collisions (about 1 in 10^7 for a search of 10^6
 * positions).
 */
export class PositionTable {
  private hi: Int32Array;
  private lo: Int32Array;
  private value: Int32Array;
  /** A slot is in use when its stamp is the current epoch: `clear` just moves to the next epoch. */
  private stamp: Int32Array;
  private epoch = 1;
  private mask: number;
  size = 0;

  constructor(log2Capacity = 14) {
    const capacity = 1 << log2Capacity;
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.value = new Int32Array(capacity);
    this.stamp = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** Forgets every position. */
  clear(): void {
    this.epoch++;
    this.size = 0;
  }

  /**
   * Records the position with `pass`; returns false (and records nothing) when it is already known
   * with a pass no greater: a position reached again with more passes used is dominated.
   */
  visit(hi: number, lo: number, pass: number): boolean {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      if (this.stamp[i] !== this.epoch) break;
      if (this.hi[i] === hi && this.lo[i] === lo) {
        if (this.value[i]! <= pass) return false;
        this.value[i] = pass;
        return true;
      }
      i = (i + 1) & this.mask;
    }
    this.stamp[i] = this.epoch;
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.value[i] = pass;
    if (++this.size * 2 > this.mask) this.grow();
    return true;
  }

  private grow(): void {
    const { hi, lo, value, stamp, epoch } = this;
    const capacity = (this.mask + 1) * 2;
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.value = new Int32Array(capacity);
    this.stamp = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let j = 0; j < stamp.length; j++) {
      if (stamp[j] !== epoch) continue;
      let i = (lo[j]! ^ Math.imul(hi[j]!, 0x9e3779b1)) & this.mask;
      while (this.stamp[i] === epoch) i = (i + 1) & this.mask;
      this.stamp[i] = epoch;
      this.hi[i] = hi[j]!;
      this.lo[i] = lo[j]!;
      this.value[i] = value[j]!;
    }
  }
}
