import type { InternalMove } from './moves.js';
import { isColumn, isFoundation, WASTE } from './piles.js';

/** Both scores, derived from the log by the fold (docs/rules.md). */
export interface Score {
  readonly vegas: number;
  readonly standard: number;
}

export const OPENING_SCORE: Score = { vegas: -52, standard: 0 };

/** The score after a move, given whether it turned up a tableau card. */
export function scoreMove(score: Score, move: InternalMove, revealed: boolean): Score {
  if (move.type !== 'move') return score;
  const { from, to } = move;
  let vegas = score.vegas;
  let standard = score.standard;
  if (isFoundation(to)) {
    vegas += 5;
    standard += 10;
  }
  if (isFoundation(from)) {
    vegas -= 5;
    standard -= 15;
  }
  if (from === WASTE && isColumn(to)) standard += 5;
  if (revealed) standard += 5;
  standard = Math.max(0, standard);
  return vegas === score.vegas && standard === score.standard ? score : { vegas, standard };
}
