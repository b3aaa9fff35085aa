import type { GameEvent } from './events.js';
import { decide, evolve, fold, type GameState } from './game.js';
import type { Command } from './moves.js';
import { isViolation, type Violation } from './violations.js';

/** The game as it was at `version` (0 is the deal): the fold of the first version + 1 events. */
export function stateAt(events: readonly GameEvent[], version: number): GameState {
  if (!Number.isInteger(version) || version < 0 || version >= events.length) {
    throw new RangeError(`version ${version} is not in 0..${events.length - 1}`);
  }
  return fold(events.slice(0, version + 1));
}

export interface Frame {
  readonly version: number;
  readonly event: GameEvent;
  readonly state: GameState;
}

/** The state after each event with a version in from..to (inclusive), folding the log once. */
export function frames(events: readonly GameEvent[], from: number, to: number): Frame[] {
  const result: Frame[] = [];
  let state: GameState | null = null;
  for (let version = 0; version <= Math.min(to, events.length - 1); version++) {
    const event = events[version]!;
    state = evolve(state, event);
    if (version >= from) result.push({ version, event, state });
  }
  return result;
}

export type HistoryCheck =
  | { readonly ok: true; readonly state: GameState; readonly events: readonly GameEvent[] }
  | { readonly ok: false; readonly index: number; readonly violation: Violation; readonly state: GameState };

/**
 * Plays a history from its deal, deciding each command as the live game would. Stops at the first
 * command that breaks a rule and says which one (by index into `commands`).
 */
export function checkHistory(dealt: GameEvent, commands: readonly Command[]): HistoryCheck {
  let state = fold([dealt]);
  const events: GameEvent[] = [dealt];
  for (const [index, command] of commands.entries()) {
    const outcome = decide(state, command);
    if (isViolation(outcome)) return { ok: false, index, violation: outcome, state };
    events.push(outcome);
    state = evolve(state, outcome);
  }
  return { ok: true, state, events };
}
