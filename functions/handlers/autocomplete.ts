import { autocomplete } from '../../domain/index.js';
import { planHandler } from '../commands.js';
import { Problem } from '../http/problem.js';
import { deadline, outOfTime, SOLVER_MS } from '../solver.js';

/**
 * POST /games/{id}/autocomplete: when the finish can be proved from what the player knows (no card
 * face down, the stock's order seen), plays the game to the end as ordinary events; 422 otherwise.
 * A proof cut short by its deadline is thrown, not returned: 503 `busy`, never kept as the key's
 * first answer.
 */
export const handler = planHandler('autocomplete', (state) => {
  const clock = deadline(SOLVER_MS.autocomplete);
  const line = autocomplete(state, clock);
  if (line) return line;
  if (clock.passed()) throw outOfTime('Autocomplete', SOLVER_MS.autocomplete);
  return new Problem(
    'not-winnable',
    'The win cannot be proved from what you can see: turn up every face-down card and deal the stock through once first.',
    { currentVersion: state.version },
  );
});
