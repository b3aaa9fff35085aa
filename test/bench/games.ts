import {
  type Command,
  deal,
  decide,
  deckFromSeed,
  evolve,
  fold,
  type GameEvent,
  HOUSE_RULES,
  isViolation,
  legalMoves,
} from '../../domain/index.js';

/**
 * A long game for benchmarks: `length` events of varied play (moves, draws, recycles, undos and
 * redos), made deterministically from a seed.
 */
export function longGame(length: number, seed = 1): GameEvent[] {
  const events: GameEvent[] = [deal(deckFromSeed(seed), seed, { ...HOUSE_RULES, passes: null })];
  let state = fold(events);
  let r = seed;
  while (events.length < length) {
    r = (Math.imul(r, 1103515245) + 12345) >>> 0;
    const moves = legalMoves(state);
    const roll = r % 10;
    const command: Command =
      roll === 0 && state.done
        ? { type: 'undo' }
        : roll === 1 && state.undone
          ? { type: 'redo' }
          : (moves[r % Math.max(1, moves.length)] ?? { type: 'undo' });
    const event = decide(state, command);
    if (isViolation(event) || event.type === 'resigned') continue;
    const next = evolve(state, event);
    if (next.status !== 'playing') continue; // keep the game going
    events.push(event);
    state = next;
  }
  return events;
}
