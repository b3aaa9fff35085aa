/** The pure Klondike domain: no I/O, no clock, no randomness of its own. */
export * from './board.js';
export * from './cards.js';
export * from './daily.js';
export * from './events.js';
export * from './game.js';
export * from './moves.js';
export * from './piles.js';
export * from './records.js';
export * from './replay.js';
export * from './rules.js';
export * from './score.js';
export * from './shuffle.js';
export * from './snapshot.js';
export * from './solver/index.js';
export * from './view.js';
export * from './violations.js';
