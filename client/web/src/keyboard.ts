/**
 * Moving around the table with the keyboard alone. The table is one tab stop; the arrow keys
 * move between its piles, and in a column Up and Down choose how many face-up cards Enter picks up.
 */
import type { View } from '../../types.js';
import { isTableau, maxCount, PILES, type PileId } from './piles.js';

/** Which pile lies under each pile of the top row, and above each column. */
const BELOW: Partial<Record<PileId, PileId>> = {
  stock: 't1',
  waste: 't2',
  fC: 't4',
  fD: 't5',
  fH: 't6',
  fS: 't7',
};
const ABOVE: Partial<Record<PileId, PileId>> = {
  t1: 'stock',
  t2: 'waste',
  t3: 'waste',
  t4: 'fC',
  t5: 'fD',
  t6: 'fH',
  t7: 'fS',
};

export interface Aim {
  readonly pile: PileId;
  /** Cards from the top of a column that Enter picks up (1 elsewhere). */
  readonly depth: number;
}

/** Where an arrow, Home or End key takes the aim; null for any other key. */
export function moveAim(view: View, aim: Aim, key: string): Aim | null {
  const at = PILES.indexOf(aim.pile);
  const go = (pile: PileId): Aim => ({ pile, depth: 1 });
  switch (key) {
    case 'ArrowRight':
      return go(PILES[(at + 1) % PILES.length]!);
    case 'ArrowLeft':
      return go(PILES[(at - 1 + PILES.length) % PILES.length]!);
    case 'Home':
      return go(PILES[0]!);
    case 'End':
      return go(PILES[PILES.length - 1]!);
    case 'ArrowUp':
      if (isTableau(aim.pile) && aim.depth < maxCount(view, aim.pile))
        return { ...aim, depth: aim.depth + 1 };
      return ABOVE[aim.pile] ? go(ABOVE[aim.pile]!) : aim;
    case 'ArrowDown':
      if (isTableau(aim.pile)) return { ...aim, depth: Math.max(1, aim.depth - 1) };
      return BELOW[aim.pile] ? go(BELOW[aim.pile]!) : aim;
    default:
      return null;
  }
}

/** The letter keys of the play view, each the same as one of its buttons. */
export const SHORTCUTS: Readonly<Record<string, string>> = {
  d: 'Draw or recycle',
  u: 'Undo',
  r: 'Redo',
  h: 'Hint',
  a: 'Autoplay',
  c: 'Autocomplete, when offered',
};
