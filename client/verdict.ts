/**
 * What a finished game's analysis (GET /games/{id}/analysis) says of its deal, in words both clients
 * use; each names in its own way the step after which the game could no longer be won.
 */
import type { Analysis, View } from './types.js';

/**
 * The last version after which the game could still be won, when it was lost before its end: a
 * resignation is an event of its own, so a game winnable just before it still was "when you resigned".
 */
export function lostAfter(analysis: Analysis, view: View): number | undefined {
  const last = analysis.lastWinnableVersion;
  if (typeof last !== 'number') return undefined;
  const end = view.status === 'resigned' ? view.version - 1 : view.version;
  return last < end ? last : undefined;
}

/** The analysis in words; `until(last)` says, after a space, where the game was lost (see `lostAfter`). */
export function verdictWords(analysis: Analysis, view: View, until: (last: number) => string): string {
  const last = lostAfter(analysis, view);
  const lost = last === undefined ? '' : ` ${until(last)}`;
  switch (analysis.verdict) {
    case 'winnable':
      if (view.status === 'won')
        // The analysis of a won game needs no search: its line is the player's own moves (those in
        // effect, the undone ones left out). Every action is a move in effect unless some were
        // undone (an undo is an action of its own).
        return `This deal can be won, as you showed: watch your winning line${view.version > view.moves ? ', without the moves you undid' : ''}.`;
      return lost
        ? `This deal could be won.${lost}`
        : 'This deal could be won, and still could when you resigned.';
    case 'lost':
      return 'No line could win this deal, whatever was played.';
    case 'unknown':
      return `Whether this deal could be won was not worked out in time.${lost}`;
  }
}
