/**
 * An open-addressing hash table from 64-bit keys (two 32-bit halves) to a 32-bit mask, for the
 * solver's positions: the key is a position without its waste size, the mask the waste sizes with
 * which it was searched. Far faster and leaner than a `Map` of strings, and exact up to 64-bit
 * collisions (about 1 in 10^7 for a search of 10^6 positions).
 */
export class PositionTable {
  private hi: Int32Array;
  private lo: Int32Array;
  private value: Int32Array;
  private used: Uint8Array;
  private mask: number;
  size = 0;

  constructor(log2Capacity = 14) {
    const capacity = 1 << log2Capacity;
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.value = new Int32Array(capacity);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  private slot(hi: number, lo: number): number {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    while (this.used[i] === 1 && (this.hi[i] !== hi || this.lo[i] !== lo)) i = (i + 1) & this.mask;
    return i;
  }

  /** The mask recorded for a key (0 when none). */
  get(hi: number, lo: number): number {
    const i = this.slot(hi, lo);
    return this.used[i] === 1 ? this.value[i]! : 0;
  }

  /** Adds `bits` to the mask of a key. */
  add(hi: number, lo: number, bits: number): void {
    const i = this.slot(hi, lo);
    if (this.used[i] === 1) {
      this.value[i]! |= bits;
      return;
    }
    this.used[i] = 1;
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.value[i] = bits;
    if (++this.size * 2 > this.mask) this.grow();
  }

  private grow(): void {
    const { hi, lo, value, used } = this;
    const capacity = (this.mask + 1) * 2;
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.value = new Int32Array(capacity);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
    for (let j = 0; j < used.length; j++) {
      if (used[j] !== 1) continue;
      const i = this.slot(hi[j]!, lo[j]!);
      this.used[i] = 1;
      this.hi[i] = hi[j]!;
      this.lo[i] = lo[j]!;
      this.value[i] = value[j]!;
    }
  }
}
