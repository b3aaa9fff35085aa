import type { Position } from './position.js';

/** Talon stops at most: each of 52 cards once in this pass and once after a recycle. */
const MOST = 2 * 52;

/**
 * The talon positions whose card some number of draws (and at most one recycle, when one is left)
 * brings to the waste's top, fewest draws first: the cards the stock and waste can play next. Listed
 * afresh for each position by `list`.
 */
export class TalonStops {
  count = 0;
  /** Talon position (1..) of stop k. */
  readonly at = new Int8Array(MOST);
  /** 1 if stop k recycles the waste on the way. */
  readonly recycle = new Int8Array(MOST);
  /** Draws stop k takes. */
  readonly draws = new Int8Array(MOST);

  list(position: Position): void {
    this.listFrom(position.wasteSize, position.talonSize, position.draw, position.canRecycle());
  }

  /** The stops from waste size `wasteSize` of a talon of `talonSize` cards, with a recycle left or not. */
  listFrom(wasteSize: number, talonSize: number, draw: number, recycleLeft: boolean): void {
    this.count = 0;
    if (talonSize === 0) return;
    let at = wasteSize;
    let draws = 0;
    if (at === 0) {
      at = Math.min(draw, talonSize);
      draws = 1;
    }
    for (;;) {
      this.add(at, 0, draws);
      if (at >= talonSize) break;
      at = Math.min(at + draw, talonSize);
      draws++;
    }
    if (!recycleLeft) return;
    // After a recycle, the stops this pass does not reach.
    const toTheEnd = Math.ceil((talonSize - wasteSize) / draw);
    for (let r = 1; ; r++) {
      const next = Math.min(r * draw, talonSize);
      const thisPass = next >= wasteSize && ((next - wasteSize) % draw === 0 || next === talonSize);
      if (!thisPass) this.add(next, 1, toTheEnd + r);
      if (next >= talonSize) break;
    }
  }

  private add(at: number, recycle: number, draws: number): void {
    const k = this.count++;
    this.at[k] = at;
    this.recycle[k] = recycle;
    this.draws[k] = draws;
  }
}
