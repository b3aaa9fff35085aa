import { SUIT } from './card-tables.js';
import {
  cardOfMove,
  fromOf,
  kindOf,
  TABLEAU_TO_FOUNDATION,
  TABLEAU_TO_TABLEAU,
  toOf,
  WASTE_TO_FOUNDATION,
  WASTE_TO_TABLEAU,
} from './packed-moves.js';

/**
 * Moves that commute with the move before them: played the other way round, from the position
 * before, the two moves reach the same position, and the search tries that order there. So it
 * drops this one. Of two such orders the one kept plays a card home first, then a move between
 * columns, then a talon move; of two moves between columns, the one from the column further
 * left first (which column a run goes onto may change with the order, between twins, which the key
 * does not tell apart; where it comes from does not).
 *
 * - After a talon move (the waste's card onto column b, or home): a column's top sent home was a
 *   top, and could go home, before it (a talon move covers no top but b's and lowers no
 *   foundation); only the next card of the suit the talon's card went home to is new. A move
 *   between columns that neither leaves b nor lands on b could be made before it, and the talon
 *   move after it (the same card of the talon, onto the same top). One that leaves b takes the
 *   talon's card along on the cards it lies on: the same run without it could leave first, and the
 *   card then goes onto the same card, now in the other column.
 * - After a move between columns (a run from column a to column e): a top sent home from another
 *   column was a top before, and the run's move stays legal after it (the card it went onto is in
 *   e); so was the run's own top, now e's (it goes home from a first, and the rest of the run after
 *   it, or nothing when the run was that card alone). Another run that neither leaves nor lands on a
 *   or e could move before it.
 *
 * This holds only where the position before listed every move: not where a safe move was the only
 * one listed (`safeMove`), nor where a card had just been taken back from its foundation, so that
 * the move before had to meet an obligation (`obligations.ts`). The search passes -1 there.
 * Moves that reach the same position by other means are left to the table of positions.
 */
export function commutes(previous: number, m: number): boolean {
  const kind = kindOf(m);
  if (kind !== TABLEAU_TO_FOUNDATION && kind !== TABLEAU_TO_TABLEAU) return false;
  switch (kindOf(previous)) {
    case WASTE_TO_TABLEAU:
      return kind === TABLEAU_TO_FOUNDATION || toOf(m) !== toOf(previous);
    case WASTE_TO_FOUNDATION:
      return kind === TABLEAU_TO_TABLEAU || SUIT[cardOfMove(m)] !== SUIT[cardOfMove(previous)];
    case TABLEAU_TO_TABLEAU: {
      const a = fromOf(previous);
      const e = toOf(previous);
      const from = fromOf(m);
      if (kind === TABLEAU_TO_FOUNDATION) return from !== a;
      const to = toOf(m);
      return from !== a && from !== e && to !== a && to !== e && from < a;
    }
    default:
      return false;
  }
}
