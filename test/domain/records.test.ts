import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dailyFigures, type GameRecord, playerStats } from '../../domain/index.js';

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
      daily: { played: 0, won: 0, bestStreak: 0, lastWin: null, lastLoss: null },
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
      daily: { played: 0, won: 0, bestStreak: 0, lastWin: null, lastLoss: null },
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

describe("a player's daily figures", () => {
  const daily = (id: string, day: string, status: GameRecord['status']): GameRecord => ({
    id,
    status,
    createdAt: `${day}T08:00:00.000Z`,
    ...(status === 'playing' ? {} : { endedAt: `${day}T09:00:00.000Z` }),
    moves: 100,
    vegas: 0,
    daily: day,
  });
  // Won the 1st, 2nd and 3rd, resigned the 5th, won the 6th and 7th; an ordinary game between.
  const games = [
    daily('d1', '2026-03-01', 'won'),
    daily('d2', '2026-03-02', 'won'),
    daily('d3', '2026-03-03', 'won'),
    daily('d5', '2026-03-05', 'resigned'),
    daily('d6', '2026-03-06', 'won'),
    daily('d7', '2026-03-07', 'won'),
    {
      id: 'plain',
      status: 'won',
      createdAt: '2026-03-04T01:00:00.000Z',
      endedAt: '2026-03-04T02:00:00.000Z',
      moves: 90,
      vegas: 5,
    } as GameRecord,
  ];
  const record = playerStats(games).daily;

  it('count daily deals played and won, and the best run of consecutive days with a win', () => {
    expect(record).toEqual({
      played: 6,
      won: 5,
      bestStreak: 3,
      lastWin: { day: '2026-03-07', run: 2 },
      lastLoss: '2026-03-05',
    });
  });

  it('keep a streak current through the day after its last win until that day is lost', () => {
    expect(dailyFigures(record, '2026-03-07')).toMatchObject({ currentStreak: 2, bestStreak: 3 });
    // The 8th: not played yet, or in play: the streak stands.
    expect(dailyFigures(record, '2026-03-08').currentStreak).toBe(2);
    expect(
      dailyFigures(playerStats([...games, daily('d8', '2026-03-08', 'playing')]).daily, '2026-03-08')
        .currentStreak,
    ).toBe(2);
    // Resigned on the 8th, or a day gone by without a win: it is over.
    expect(
      dailyFigures(playerStats([...games, daily('d8', '2026-03-08', 'resigned')]).daily, '2026-03-08')
        .currentStreak,
    ).toBe(0);
    expect(dailyFigures(record, '2026-03-09').currentStreak).toBe(0);
    // A win on the 8th makes it three.
    expect(
      dailyFigures(playerStats([...games, daily('d8', '2026-03-08', 'won')]).daily, '2026-03-08'),
    ).toEqual({
      played: 7,
      won: 6,
      currentStreak: 3,
      bestStreak: 3,
    });
  });
});
