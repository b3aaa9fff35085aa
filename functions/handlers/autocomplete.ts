import { autocomplete } from '../../domain/index.js';
import { planHandler } from '../commands.js';
import { Problem } from '../http/problem.js';
import { deadline, SOLVER_MS } from '../solver.js';

/**
 * POST /games/{id}/autocomplete: when the finish can be proved from what the player knows (no card
 * face down, the stock's order seen), plays the game to the end as ordinary events; 422 otherwise.
 */
export const handler = planHandler(
  'autocomplete',
  (state) =>
    autocomplete(state, deadline(SOLVER_MS.autocomplete)) ??
    new Problem(
      'not-winnable',
      'The win cannot be proved from what you can see: turn up every face-down card and deal the stock through once first.',
      { currentVersion: state.version },
    ),
);
