import { type GameState, type SolveBudget, violation } from '../domain/index.js';
import { illegal } from './games.js';

/**
 * Time budgets for the solver inside a Lambda call (the functions time out at 10 s): the solver
 * reads the clock every thousand positions and stops at the deadline.
 */
export const SOLVER_MS = { autocomplete: 2_500, winnableDeal: 2_500 } as const;

export const deadline = (ms: number): SolveBudget => ({
  now: () => performance.now(),
  deadline: performance.now() + ms,
});

/** A finished game takes no more moves of any kind: the same 422 as a move would get. */
export function refuseFinished(state: GameState) {
  return state.status === 'playing'
    ? undefined
    : illegal(
        violation('game-over', `The game is ${state.status}: it takes no more actions.`),
        {},
        state.version,
      );
}
