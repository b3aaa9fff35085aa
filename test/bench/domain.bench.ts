import { bench, describe } from 'vitest';
import { decide, evolve, fold, type GameEvent, isViolation, legalMoves } from '../../domain/index.js';
import { longGame } from './games.js';

const events = longGame(1000);
const state = fold(events);
const move = legalMoves(state)[0]!;

describe('domain', () => {
  bench('fold a 1,000-event game', () => {
    fold(events);
  });

  bench('one decide + evolve step', () => {
    const event = decide(state, move);
    if (isViolation(event)) throw new Error(event.rule);
    evolve(state, event as GameEvent);
  });

  bench('list the legal moves', () => {
    legalMoves(state);
  });
});
