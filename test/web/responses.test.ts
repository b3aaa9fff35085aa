import { describe, expect, it } from 'vitest';
import type { View } from '../../client/types.js';
import { hiddenCardsIn, type Recorded } from './responses.js';

/** The browser test's leak check, on answers made up to leak: it must notice each one. */
const view = (extra: Partial<View> = {}): View => ({
  id: 'g1',
  version: 1,
  status: 'playing',
  rules: { draw: 3, passes: 3, foundationToTableau: true },
  stock: { count: 24 },
  waste: ['7D'],
  foundations: { C: [], D: [], H: [], S: [] },
  tableau: [
    { hidden: 0, cards: ['AS'] },
    ...Array.from({ length: 6 }, (_, i) => ({ hidden: i + 1, cards: ['KH'] })),
  ],
  pass: 1,
  recyclesLeft: 2,
  moves: 1,
  score: { vegas: -52, standard: 0 },
  canUndo: true,
  canRedo: false,
  legalMoves: [],
  ...extra,
});
const record = (path: string, body: unknown): Recorded => ({
  path,
  body: Promise.resolve(JSON.stringify(body)),
});

describe('the check for face-down cards in what the browser received', () => {
  it('passes a view that shows only its face-up cards, and a hint naming them', async () => {
    const answers = [
      record('/games/g1', view()),
      record('/games/g1/hint', { move: null, reason: 'AS can go home' }),
    ];
    expect(await hiddenCardsIn(answers)).toEqual([]);
  });

  it('catches hidden cards, the stock, the deck or the seed in a view in play, and a card named in a message', async () => {
    const leaks = await hiddenCardsIn([
      record('/games/g1', view({ stock: { count: 24, cards: ['2C'] } })),
      record('/games/g1', { ...view(), deck: [] }),
      record('/games/g1', { ...view(), seed: 1 }),
      record('/games/g1/moves', { type: '/problems/illegal-move', detail: 'QS does not go on KH' }),
    ]);
    expect(leaks).toEqual([
      '/games/g1 (game g1): has stock.cards',
      '/games/g1 (game g1): 2C is face down',
      '/games/g1 (game g1): has deck',
      '/games/g1 (game g1): has seed',
      '/games/g1/moves (game g1): QS is face down',
    ]);
  });

  it("catches a player's list showing a seed, a deck or a card of a game in play, but not of a finished one", async () => {
    const row = (extra: object) => ({
      id: 'g1',
      status: 'playing',
      rules: { draw: 3, passes: 3, foundationToTableau: true },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      version: 1,
      moves: 1,
      score: { vegas: -52, standard: 0 },
      ...extra,
    });
    expect(await hiddenCardsIn([record('/me/games', { games: [row({})], next: null })])).toEqual([]);
    const leaks = await hiddenCardsIn([
      record('/me/games', {
        games: [row({ seed: 7 }), row({ id: 'g2', deck: ['QS'] }), row({ id: 'g3', status: 'won', seed: 7 })],
        next: null,
      }),
      record('/me/stats', { started: 1, lastCard: 'KH' }),
    ]);
    expect(leaks).toEqual([
      '/me/games: game g1 in play has seed',
      '/me/games: game g2 in play has deck',
      '/me/games: game g2 in play names QS',
      '/me/stats: names KH',
    ]);
  });

  it('lets a finished game show everything', async () => {
    const over = view({ status: 'resigned', stock: { count: 24, cards: ['2C'] } });
    expect(
      await hiddenCardsIn([record('/games/g1', over), record('/games/g1', { ...over, deck: ['QS'] })]),
    ).toEqual([]);
  });
});
