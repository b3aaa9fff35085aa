import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GameRecord, playerStats } from '../../domain/index.js';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const game = (
  id: string,
  status: GameRecord['status'],
  created: number,
  ended?: number,
  moves = 100,
  vegas = 0,
) =>
  ({
    id,
    status,
    createdAt: at(created),
    ...(ended === undefined ? {} : { endedAt: at(ended) }),
    moves,
    vegas,
  }) as GameRecord;

describe("a player's statistics", () => {
  it('are those of no games before the first', () => {
    expect(playerStats([])).toEqual({
      started: 0,
      won: 0,
      resigned: 0,
      inPlay: 0,
      winRate: null,
      currentStreak: 0,
      bestStreak: 0,
      bestVegas: null,
      fewestMovesToWin: null,
      asOf: null,
    });
  });

  it('count streaks in the order games ended, not the order they were dealt', () => {
    // Dealt a, b, c, d, e; ended b (won), a (won), d (resigned), c (won), e still in play.
    const games = [
      game('a', 'won', 1, 6, 120, 30),
      game('b', 'won', 2, 5, 90, -12),
      game('c', 'won', 3, 9, 150, 208),
      game('d', 'resigned', 4, 8, 40, -47),
      game('e', 'playing', 7),
    ];
    expect(playerStats(games)).toEqual({
      started: 5,
      won: 3,
      resigned: 1,
      inPlay: 1,
      winRate: 0.75,
      currentStreak: 1,
      bestStreak: 2,
      bestVegas: 208,
      fewestMovesToWin: 90,
      asOf: at(9),
    });
  });

  it('do not depend on the order the games are given in', () => {
    const record = fc.record({
      id: fc.uuid(),
      status: fc.constantFrom('playing', 'won', 'resigned' as const),
      created: fc.nat({ max: 500 }),
      length: fc.nat({ max: 500 }),
      moves: fc.nat({ max: 400 }),
      vegas: fc.integer({ min: -52, max: 208 }),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), fc.nat(), (specs, shift) => {
        const games = specs.map((s) =>
          game(
            s.id,
            s.status as GameRecord['status'],
            s.created,
            s.status === 'playing' ? undefined : s.created + s.length,
            s.moves,
            s.vegas,
          ),
        );
        const rotated = [
          ...games.slice(shift % (games.length || 1)),
          ...games.slice(0, shift % (games.length || 1)),
        ].reverse();
        expect(playerStats(rotated)).toEqual(playerStats(games));
      }),
    );
  });
});
