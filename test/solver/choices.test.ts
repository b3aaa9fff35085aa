import { describe, expect, it } from 'vitest';
import { applyMove, type Board, checkMove } from '../../domain/board.js';
import { type Card, parseCard } from '../../domain/cards.js';
import type { Rules } from '../../domain/rules.js';
import { choices, lineChoice } from '../../domain/solver/choices.js';
import { boardOf } from './positions.js';

const card = (code: string): Card => parseCard(code)!;
const cards = (codes: string): Card[] => codes.split(' ').map(card);
const rules: Rules = { draw: 3, passes: 3, foundationToTableau: true };

/**
 * The stock (top last) deals 6C 2C 8H, then JC 3C 4D: the eight of hearts fits on the nine of
 * spades after one draw, the four of diamonds on the five of clubs after two; nothing else it holds
 * fits anywhere, nor does the ten of diamonds on the waste.
 */
const board = (pass: number): Board => ({
  stock: cards('4D 3C JC 8H 2C 6C'),
  waste: cards('TD'),
  foundations: [[], [], [], []],
  tableau: [
    { hidden: [], up: cards('9S') },
    { hidden: [], up: cards('5C') },
    { hidden: cards('2S'), up: cards('KC') },
    { hidden: cards('3S'), up: cards('KD') },
    { hidden: cards('4S'), up: cards('KH') },
    { hidden: cards('5S'), up: cards('KS') },
    { hidden: cards('6S'), up: cards('QH') },
  ],
  pass,
});

describe('choices', () => {
  it('once the stock is known, offers each card the draws bring up, and no draw of its own', () => {
    const found = choices(board(2), rules);
    expect(found.some((choice) => choice.move.type !== 'move')).toBe(false);
    const talon = found.filter((choice) => choice.kind === 'talon');
    expect(talon.map(({ path, move }) => ({ draws: path.length, move }))).toEqual([
      { draws: 1, move: { type: 'move', from: 'waste', to: 't1', count: 1 } },
      { draws: 2, move: { type: 'move', from: 'waste', to: 't2', count: 1 } },
    ]);
    // Each is legal where its path leads, and plays the card the draws brought up.
    for (const { path, move } of talon) {
      const at = path.reduce((current, step) => applyMove(current, rules, step).board, board(2));
      expect(checkMove(at, rules, move)).toBeUndefined();
      expect(path.every((step) => step.type === 'draw')).toBe(true);
    }
    // The queen of hearts onto a black king turns a card up: a choice of its own, with no draws.
    expect(found.filter((choice) => choice.kind === 'reveal').map((choice) => choice.move)).toEqual([
      { type: 'move', from: 't7', to: 't3', count: 1 },
      { type: 'move', from: 't7', to: 't6', count: 1 },
    ]);
  });

  it('reaches a card through a recycle when the rules leave one, with the fewest draws', () => {
    // One draw brings up the four of diamonds; the eight of hearts went by in this pass, under the
    // ten: after the recycle, the first draw deals 6C 2C 8H.
    const late: Board = { ...board(2), stock: cards('4D 3C JC'), waste: cards('6C 2C 8H TD') };
    const reached = (at: Board) =>
      choices(at, rules)
        .filter((choice) => choice.kind === 'talon')
        .map(({ path, move }) => ({ path: path.map((step) => step.type), move }));
    expect(reached(late)).toEqual([
      { path: ['draw'], move: { type: 'move', from: 'waste', to: 't2', count: 1 } },
      { path: ['draw', 'recycle', 'draw'], move: { type: 'move', from: 'waste', to: 't1', count: 1 } },
    ]);
    // In the last pass the eight is out of reach.
    expect(reached({ ...late, pass: 3 })).toEqual([
      { path: ['draw'], move: { type: 'move', from: 'waste', to: 't2', count: 1 } },
    ]);
  });

  it('in the first pass, while the stock is unseen, drawing is a choice and the stock offers none', () => {
    const found = choices(board(1), rules);
    expect(found.some((choice) => choice.move.type === 'draw')).toBe(true);
    expect(found.some((choice) => choice.kind === 'talon')).toBe(false);
  });

  it('sends no card home as a choice while it could come straight back: that decides nothing', () => {
    // The four of diamonds may go home onto the three, and come back onto the five of clubs; taken
    // for progress, it lost no deal where every real choice lost one, and the next hint brought it
    // back for that choice: round and round.
    const at = boardOf({
      foundations: ['', 'AD 2D 3D', '', ''],
      columns: [
        ['', '5C 4D'],
        ['2S', 'KC'],
      ],
      pass: 3,
    });
    const home = { type: 'move', from: 't1', to: 'fD', count: 1 };
    expect(choices(at, rules).map((choice) => choice.move)).not.toContainEqual(home);
    // Where cards may not come back from the foundations, it is a choice: it cannot be taken back.
    const oneWay = choices(at, { ...rules, foundationToTableau: false });
    expect(oneWay.filter((choice) => choice.kind === 'home').map((choice) => choice.move)).toEqual([home]);
  });

  it('never moves a whole column to an empty one on the way to a choice: that only swaps columns', () => {
    // A king's run alone in t1, three columns empty: a hint once sent it from t1 to t3 and back,
    // each time on the way to a choice it could make where it was.
    const at = boardOf({
      foundations: ['AC', '', '', ''],
      columns: [
        ['', 'KH QS JH'],
        ['2C', 'TC 9H'],
        ['', ''],
        ['3C', '8C'],
        ['', ''],
        ['', ''],
        ['4C', 'TD'],
      ],
      pass: 3,
    });
    const found = choices(at, rules);
    expect(found.length).toBeGreaterThan(0);
    const swaps = found
      .flatMap(({ path }) => path)
      .filter((move) => move.type === 'move' && move.from === 't1');
    expect(swaps).toEqual([]);
  });

  it("leaves out of a winning line's way the moves between two visits of one position", () => {
    // A solver's line may send a card home and take it straight back before its first real move: a
    // hint that began that detour was followed by one that undid it (seed 312, unlimited passes).
    const at = boardOf({
      foundations: ['', '', '', 'AS 2S 3S'],
      columns: [
        ['', '5C 4H'],
        ['QD', '3D'],
        ['', '4C'],
      ],
      pass: 3,
    });
    const back = { type: 'move', from: 'fS', to: 't1', count: 1 } as const;
    const home = { type: 'move', from: 't1', to: 'fS', count: 1 } as const;
    const reveal = { type: 'move', from: 't2', to: 't3', count: 1 } as const;
    expect(lineChoice(at, rules, [back, home, reveal])).toMatchObject({
      path: [],
      move: reveal,
      kind: 'reveal',
    });
    // The way is kept from where the line last left that position.
    expect(lineChoice(at, rules, [back, home, back, reveal])?.path).toEqual([back]);
  });

  it("never moves a run to its holder's twin on the way to what it could do where it was", () => {
    // Reached by following the hints on seed 379 (unlimited passes). The 6C 5D 4C run lies on the
    // seven of hearts; the seven of diamonds, its twin, is t7's top. Moving the run there first, then
    // the rest of t2 to t1 (or the waste's 3H onto 4C), is a longer way to what t2 to t1 with all
    // seven cards (or 3H onto 4C in t2) does at once: a hint once took it, and the next hint took the
    // same way back from t7, and so on for ever.
    const at = boardOf({
      stock: 'JS AC 2H TH JC 2S',
      waste: '8H 4S QD QS 8C JH AH 6S TS 3C 3H',
      foundations: ['', 'AD', '', 'AS'],
      columns: [
        ['', 'KD QC JD'],
        ['', 'TC 9D 8S 7H 6C 5D 4C'],
        ['', 'KS'],
        ['3D KC', '2C'],
        ['4D TD QH KH', '7S 6D 5S 4H 3S 2D'],
        ['8D 9C', '7C 6H'],
        ['5H 9S 9H 5C', '7D'],
      ],
      pass: 2,
    });
    const unlimited: Rules = { ...rules, passes: null };
    const found = choices(at, unlimited);
    const toTwin = { type: 'move', from: 't2', to: 't7', count: 3 };
    expect(
      found.filter(({ path }) => path.some((move) => JSON.stringify(move) === JSON.stringify(toTwin))),
    ).toEqual([]);
    // What they led to is offered the short way.
    expect(found.map(({ path, move }) => ({ path, move }))).toEqual(
      expect.arrayContaining([
        { path: [], move: { type: 'move', from: 't2', to: 't1', count: 7 } },
        { path: [], move: { type: 'move', from: 'waste', to: 't2', count: 1 } },
      ]),
    );
  });
});
