import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyMove, type Board, checkMove, isCleared, layOut } from '../../domain/board.js';
import {
  type Card,
  cardOf,
  isDeckError,
  KING,
  parseCard,
  parseDealString,
  parseDeck,
} from '../../domain/cards.js';
import { deal, fold, type GameState } from '../../domain/game.js';
import type { PlayedMove } from '../../domain/moves.js';
import { checkHistory } from '../../domain/replay.js';
import { HOUSE_RULES, type Rules } from '../../domain/rules.js';
import { OPENING_SCORE } from '../../domain/score.js';
import { deckFromSeed, mulberry32 } from '../../domain/shuffle.js';
import { RANK } from '../../domain/solver/card-tables.js';
import { DeadEnds } from '../../domain/solver/dead-ends.js';
import { autocomplete, safeAutoplay, solve, solveBoard, winnableDeal } from '../../domain/solver/index.js';
import { computeKey } from '../../domain/solver/key.js';
import { playerMoves } from '../../domain/solver/line.js';
import { MoveList, type MoveOrder } from '../../domain/solver/move-list.js';
import {
  cardOfMove,
  countOf,
  fromOf,
  kindOf,
  TABLEAU_TO_TABLEAU,
  WASTE_TO_TABLEAU,
} from '../../domain/solver/packed-moves.js';
import { play, remember, takeBack } from '../../domain/solver/play.js';
import { NO_CARD, Position } from '../../domain/solver/position.js';
import { safeMove } from '../../domain/solver/safety.js';
import { SeenPositions } from '../../domain/solver/seen.js';
import { bruteForceWinnable, faceUpRuns, randomPlay } from './positions.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/winning-lines.json', import.meta.url), 'utf8'),
) as {
  lines: { deck: string[] }[];
};

/** Seeds whose deals the solver wins quickly under the house rules. */
const QUICK_SEEDS = [0, 3, 6, 10, 11];

/** A foundation holding the first `height` cards of `suit`. */
const home = (suit: number, height: number) => Array.from({ length: height }, (_, r) => cardOf(r + 1, suit));

const replayWins = (deck: readonly Card[], rules: Rules, line: readonly PlayedMove[]) => {
  const result = checkHistory(deal(deck, null, rules), line);
  expect(result.ok).toBe(true);
  if (result.ok) expect(result.state.status).toBe('won');
};

/** Plays moves on a board through the domain's own checks; throws on the first illegal one. */
function playOn(board: Board, rules: Rules, moves: readonly PlayedMove[]): Board {
  let current = board;
  for (const [i, move] of moves.entries()) {
    const problem = checkMove(current, rules, move);
    if (problem) throw new Error(`move ${i} (${JSON.stringify(move)}) is illegal: ${problem.detail}`);
    current = applyMove(current, rules, move).board;
  }
  return current;
}

/**
 * A small random position: most cards home, the rest in the talon and in seven short columns (so no
 * column is free for a King), some face down.
 */
function smallPosition(seed: number): { board: Board; rules: Rules } {
  const next = mulberry32(seed);
  const pick = (n: number) => next() % n;
  const rest: Card[] = [];
  const heights = [13, 13, 13, 13];
  while (rest.length < 9 + pick(3)) {
    const suit = pick(4);
    if (heights[suit]! === 0) continue;
    rest.push(cardOf(heights[suit]!, suit));
    heights[suit]!--;
  }
  for (let i = rest.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  const talon = rest.splice(0, 2 + pick(3));
  const wasteSize = pick(talon.length + 1);
  const tableau = Array.from({ length: 7 }, (_, i) => {
    const size = i < rest.length % 7 ? 2 : 1;
    const cards = rest.splice(0, i === 6 ? rest.length : size);
    return { hidden: cards.slice(0, -1), up: cards.slice(-1) };
  });
  const rules: Rules = {
    draw: pick(2) === 0 ? 1 : 3,
    passes: [1, 2, null][pick(3)]!,
    foundationToTableau: pick(3) === 0,
  };
  const board: Board = {
    stock: talon.slice(wasteSize).reverse(),
    waste: talon.slice(0, wasteSize),
    foundations: heights.map((height, suit) => Array.from({ length: height }, (_, r) => cardOf(r + 1, suit))),
    tableau,
    pass: 1,
  };
  return { board, rules };
}

/** A game in play on any board (for positions built by hand). */
const stateOf = (board: Board, rules: Rules): GameState => ({
  version: 0,
  deal: { deck: deckFromSeed(0), seed: null, rules },
  board,
  status: 'playing',
  score: OPENING_SCORE,
  done: null,
  undone: null,
});

const stateAfter = (deck: readonly Card[], rules: Rules, moves: readonly PlayedMove[]): GameState => {
  const result = checkHistory(deal(deck, null, rules), moves);
  if (!result.ok) throw new Error(`illegal history at ${result.index}`);
  return fold(result.events);
};

describe('solve', () => {
  it('wins the three deals of the fixture, with lines the domain replays to a win', () => {
    for (const { deck: codes } of fixture.lines) {
      const deck = parseDeck(codes);
      if (isDeckError(deck)) throw new Error(deck.problem);
      const solved = solve(deck, HOUSE_RULES, { nodes: 3_000_000 });
      expect(solved.result).toBe('won');
      if (solved.result === 'won') replayWins(deck, HOUSE_RULES, solved.line);
    }
  });

  it('returns lines that replay to a win under several rule sets', () => {
    const ruleSets: Rules[] = [
      HOUSE_RULES,
      { draw: 1, passes: null, foundationToTableau: true },
      { draw: 3, passes: null, foundationToTableau: false },
      { draw: 1, passes: 1, foundationToTableau: false },
    ];
    let wins = 0;
    for (const rules of ruleSets) {
      for (const seed of QUICK_SEEDS) {
        const deck = deckFromSeed(seed);
        const solved = solve(deck, rules, { nodes: 100_000 });
        if (solved.result === 'won') {
          wins++;
          replayWins(deck, rules, solved.line);
        }
      }
    }
    expect(wins).toBeGreaterThan(10);
  });

  it('agrees with an exhaustive search of the legal moves on small positions, both ways', () => {
    const verdicts = { won: 0, lost: 0 };
    // Positions with more than 2,000 reachable are skipped: bigger ones only cost time (at 20,000 the
    // same seeds gave no more lost verdicts).
    for (let seed = 1; seed <= 250; seed++) {
      const { board, rules } = smallPosition(seed);
      const winnable = bruteForceWinnable(board, rules, 2_000);
      if (winnable === undefined) continue;
      const solved = solveBoard(board, rules, { nodes: 1_000_000 });
      expect(solved.result).not.toBe('unknown');
      expect({ seed, result: solved.result }).toEqual({ seed, result: winnable ? 'won' : 'lost' });
      if (solved.result === 'won') expect(isCleared(playOn(board, rules, solved.line))).toBe(true);
      if (solved.result !== 'unknown') verdicts[solved.result]++;
    }
    // The sample holds plenty of both verdicts, so neither direction goes untested.
    expect(verdicts.won).toBeGreaterThan(100);
    expect(verdicts.lost).toBeGreaterThan(1);
  });

  it('prunes nothing that matters: agrees with the plain search on positions reached by random play', () => {
    // The prunings (obligations, waste-size dominance, reversible moves home, twins alike in the key
    // and in moves) are checked against the search without them, on mid-game positions (many of them
    // lost) under seven rule sets: draw 1 and 3; 1, 2, 3 and unlimited passes; cards back on and off.
    const ruleSets: Rules[] = [
      HOUSE_RULES,
      { draw: 1, passes: 2, foundationToTableau: true },
      { draw: 3, passes: null, foundationToTableau: true },
      { draw: 3, passes: 2, foundationToTableau: false },
      { draw: 1, passes: null, foundationToTableau: false },
      { draw: 3, passes: 1, foundationToTableau: true },
      { draw: 1, passes: 1, foundationToTableau: false },
    ];
    // Many positions at 100,000 nodes rather than fewer at more: the plain search's budget is spent
    // in full on each position it cannot decide, and at 300,000 nodes 140 positions gave 128 verdicts
    // in nearly twice the time that these 180 give 155 (a pruning broken on purpose, twins sent home apart,
    // disagreed on 4 of those and on 6 of these).
    const verdicts = { won: 0, lost: 0 };
    for (let seed = 1; seed <= 180; seed++) {
      const rules = ruleSets[seed % ruleSets.length]!;
      const board = randomPlay(seed, seed % 2 === 0 ? 60 : 120, rules);
      const plain = solveBoard(board, rules, { nodes: 100_000 }, { prune: false });
      if (plain.result === 'unknown') continue;
      const pruned = solveBoard(board, rules, { nodes: 100_000 });
      expect({ seed, result: pruned.result }).toEqual({ seed, result: plain.result });
      if (pruned.result === 'won') expect(isCleared(playOn(board, rules, pruned.line))).toBe(true);
      verdicts[plain.result]++;
    }
    expect(verdicts.won).toBeGreaterThan(20);
    expect(verdicts.lost).toBeGreaterThan(100);
  });

  it('does not send a waste card home when the cards under it must come back from the foundation', () => {
    // Found by the comparison above: with 6S home from the waste, 5S and 4S cannot come back down
    // (no red seven is free to take 6S), and 3H needs 4S to uncover the ace of diamonds.
    const cards = (codes: string) => (codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!));
    const column = (hidden: string, up: string) => ({ hidden: cards(hidden), up: cards(up) });
    const board: Board = {
      stock: cards('7S 4H TS 5H JS KD'),
      waste: cards('5C 8H 7D 9C 6S'),
      foundations: [home(0, 3), home(1, 0), home(2, 1), home(3, 3)],
      tableau: [
        column('', 'KC'),
        column('', 'JC TH 9S 8D 7C 6H'),
        column('9H QH', 'KH QC JD TC 9D 8S 7H 6C 5D 4S'),
        column('', '6D 5S'),
        column('JH 4C 4D QD', 'QS'),
        column('TD 2H 3D AD', '3H'),
        column('KS 8C', '2D'),
      ],
      pass: 2,
    };
    const rules: Rules = { draw: 1, passes: 2, foundationToTableau: true };
    // The same position with columns 2 and 4 exchanged: 5S, sent home alone (it can come straight back
    // onto 6D), must come back onto 6D for 4S to follow. That position was judged by the one before
    // 5S went home, which had been searched by that safe move alone: it too was lost once.
    const exchanged: Board = {
      ...board,
      tableau: board.tableau.map((_, i, t) => t[i === 1 ? 3 : i === 3 ? 1 : i]!),
    };
    for (const position of [board, exchanged]) {
      const solved = solveBoard(position, rules, {});
      expect(solved.result).toBe('won');
      if (solved.result === 'won') expect(isCleared(playOn(position, rules, solved.line))).toBe(true);
    }
  });

  it('judges a top card by the same position with it home only when cards may come back', () => {
    const cards = (codes: string) => (codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!));
    const board = (first: string, hearts: number, spades: number, stock: string): Board => ({
      stock: cards(`JC QC KC TD JD QD KD ${stock}`),
      waste: [],
      foundations: [home(0, 9), home(1, 8), home(2, hearts), home(3, spades)],
      tableau: [cards(first), cards('TC 9D'), ...Array.from({ length: 5 }, () => [])].map((up) => ({
        hidden: [],
        up,
      })),
      pass: 1,
    });
    const rest = '5H 6H 7H 8H 9H TH JH QH KH 4S 5S 6S 7S 8S 9S TS JS QS KS';
    // 3S on 4H against the same with 3S home; KS alone in its column against that column empty.
    const pairs: [Board, Board][] = [
      [board('4H 3S', 3, 2, rest), board('4H', 3, 3, rest)],
      [board('KS', 12, 12, 'KH'), board('', 12, 13, 'KH')],
    ];
    /** Whether the search finds `board` new once it has searched `searched`, both with `takenBack`. */
    const isNewAfter = (searched: Board, board: Board, rules: Rules, takenBack = NO_CARD) => {
      const seen = new SeenPositions(rules.draw, true, 10);
      const position = (b: Board) => {
        const p = new Position(b, rules);
        p.takenBack = takenBack;
        computeKey(p);
        return p;
      };
      expect(seen.isNew(position(searched))).toBe(true);
      return seen.isNew(position(board));
    };
    const comeBack: Rules = { draw: 3, passes: 3, foundationToTableau: true };
    const stayHome: Rules = { ...comeBack, foundationToTableau: false };
    for (const [withCard, home] of pairs) {
      // Cards may come back: the card home can come straight back, so nothing is left to search.
      expect(isNewAfter(home, withCard, comeBack)).toBe(false);
      // They may not: home, it holds nothing. With 9D just taken back (an obligation), and the
      // other way round (a card out is not as good as home): searched.
      expect(isNewAfter(home, withCard, stayHome)).toBe(true);
      expect(isNewAfter(home, withCard, comeBack, parseCard('9D')!)).toBe(true);
      expect(isNewAfter(withCard, home, comeBack)).toBe(true);
    }
  });

  it('leaves out, with unlimited passes, the talon moves of the same position with another waste size searched before', () => {
    const cards = (codes: string) => codes.split(' ').map((code) => parseCard(code)!);
    // 3S on 4H could go home; the same position with 3S home judges it. The talon holds 20 cards.
    const board = (first: string, spades: number): Board => ({
      stock: cards('JC QC KC TD JD QD KD 5H 6H 7H 8H 9H TH JH QH KH 4S 5S 6S 7S'),
      waste: [],
      foundations: [home(0, 9), home(1, 8), home(2, 3), home(3, spades)],
      tableau: [cards(first), cards('TC 9D'), ...Array.from({ length: 5 }, () => [])].map((up) => ({
        hidden: [],
        up,
      })),
      pass: 1,
    });
    const unlimited: Rules = { draw: 3, passes: null, foundationToTableau: true };
    const stops = (...at: number[]) => at.reduce((mask, a) => mask | (1 << a), 0);
    /** Each board in turn, with its waste size: whether it is new, and the stops it need not list. */
    const inTurn = (rules: Rules, ...boards: [Board, number][]) => {
      const seen = new SeenPositions(rules.draw, true, 10);
      return boards.map(([b, wasteSize]) => {
        const position = new Position(b, rules);
        position.wasteSize = wasteSize;
        computeKey(position);
        const isNew = seen.isNew(position);
        return { isNew, covered: isNew ? seen.coveredStops(position) : 0 };
      });
    };
    const withCard = board('4H 3S', 2);
    // Waste 1 reaches talon positions 1, 4, ..., 19 and 20 this pass, and 3, 6, ..., 18 after a
    // recycle; waste 2 reaches 2, 5, ..., 20 and the same after a recycle. Searched after waste 1,
    // waste 2 lists 2, 5, 8, 11, 14 and 17 only.
    expect(inTurn(unlimited, [withCard, 1], [withCard, 2])).toEqual([
      { isNew: true, covered: 0 },
      { isNew: true, covered: stops(1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 20) },
    ]);
    // Waste 1 judged by the same position with 3S home is not searched: it lists nothing for waste 2.
    expect(inTurn(unlimited, [board('4H', 3), 1], [withCard, 1], [withCard, 2])).toEqual([
      { isNew: true, covered: 0 },
      { isNew: false, covered: 0 },
      { isNew: true, covered: 0 },
    ]);
    // With three passes a recycle is not free: a stop reached after one is a pass later.
    expect(inTurn({ ...unlimited, passes: 3 }, [withCard, 1], [withCard, 2])).toEqual([
      { isNew: true, covered: 0 },
      { isNew: true, covered: 0 },
    ]);
    // A whole search: seed 227 is won with unlimited passes, also by positions whose other waste sizes
    // were searched before (leaving out every talon move there, it was proved lost).
    expect(solve(deckFromSeed(227), unlimited, { nodes: 100_000 }).result).toBe('won');
  });

  it('proves hand-made dead ends lost, as the exhaustive search does, and wins their winnable twins', () => {
    const empty = () => ({ hidden: [] as Card[], up: [] as Card[] });
    const spades = (n: number) => [home(0, 13), home(1, 13), home(2, 13), home(3, n)];
    // JS under QS; KS alone. Nothing takes the queen unless a red king comes back from its foundation.
    const buried: Board = {
      stock: [],
      waste: [],
      foundations: spades(10),
      tableau: [
        { hidden: [cardOf(11, 3)], up: [cardOf(12, 3)] },
        { hidden: [], up: [cardOf(13, 3)] },
        ...Array.from({ length: 5 }, empty),
      ],
      pass: 1,
    };
    // The stock deals JS, KS, QS: with draw 3 the queen covers the jack on every pass.
    const misdealt: Board = {
      stock: [cardOf(12, 3), cardOf(13, 3), cardOf(11, 3)],
      waste: [],
      foundations: spades(10),
      tableau: Array.from({ length: 7 }, empty),
      pass: 1,
    };
    const cases: [Board, Rules, 'won' | 'lost'][] = [
      [buried, { draw: 3, passes: 3, foundationToTableau: false }, 'lost'],
      [buried, { draw: 3, passes: 3, foundationToTableau: true }, 'won'],
      [misdealt, { draw: 3, passes: 2, foundationToTableau: false }, 'lost'],
      [misdealt, { draw: 3, passes: null, foundationToTableau: false }, 'lost'],
      [misdealt, { draw: 1, passes: 1, foundationToTableau: false }, 'won'],
    ];
    for (const [board, rules, verdict] of cases) {
      // A lost verdict is confirmed by the exhaustive search; a won one by replaying the line.
      if (verdict === 'lost') expect(bruteForceWinnable(board, rules)).toBe(false);
      const solved = solveBoard(board, rules);
      expect(solved.result).toBe(verdict);
      if (solved.result === 'won') expect(isCleared(playOn(board, rules, solved.line))).toBe(true);
    }
  });

  it('wins in a few thousand moves a deal that trying cards turned up first does not win in a million', () => {
    // Seed 1812 with unlimited passes: the first search (cards turned up first) leaves it undecided
    // after a second; the second search, talon cards first, wins it in about a hundred moves, within
    // its first slice (after the first search's nine).
    const rules: Rules = { draw: 3, passes: null, foundationToTableau: true };
    const deck = deckFromSeed(1812);
    const solved = solve(deck, rules, { nodes: 12_000 });
    expect(solved.result).toBe('won');
    if (solved.result === 'won') replayWins(deck, rules, solved.line);
  });

  it('says unknown when the budget runs out, and honours a deadline', () => {
    expect(solve(deckFromSeed(2), HOUSE_RULES, { nodes: 10 }).result).toBe('unknown');
    let clock = 0;
    const timed = solve(deckFromSeed(2), HOUSE_RULES, { now: () => clock++, deadline: 3 });
    expect(timed.result).toBe('unknown');
  });
});

/** The moves a position lists, as a player makes them. */
const listed = (position: Position): PlayedMove[][] => {
  const out = new Int32Array(512);
  const n = new MoveList().generate(position, out, 0);
  return Array.from(out.subarray(0, n), (m) =>
    playerMoves(position.draw, m, position.wasteSize, position.talonSize),
  );
};

describe('the search', () => {
  it('lists the same moves in either order, talon cards first in the second search', () => {
    const rules: Rules = { draw: 3, passes: null, foundationToTableau: true };
    const movesIn = (order: MoveOrder, position: Position): number[] => {
      const out = new Int32Array(512);
      return Array.from(out.subarray(0, new MoveList(order).generate(position, out, 0)));
    };
    const talonOntoColumn = (m: number) => kindOf(m) === WASTE_TO_TABLEAU && RANK[cardOfMove(m)] !== KING;
    let both = 0;
    for (let seed = 0; seed < 200; seed++) {
      const position = new Position(layOut(deckFromSeed(seed)), rules);
      // A whole run moved off a face-down card, which turns it up.
      const turnUp = (m: number) => {
        const from = fromOf(m);
        return (
          kindOf(m) === TABLEAU_TO_TABLEAU &&
          position.faceDown[from]! > 0 &&
          countOf(m) === position.length[from]! - position.faceDown[from]!
        );
      };
      const first = movesIn('turnUpsFirst', position);
      const second = movesIn('talonFirst', position);
      expect([...second].sort()).toEqual([...first].sort());
      if (!first.some(talonOntoColumn) || !first.some(turnUp)) continue;
      both++;
      expect(first.findLastIndex(turnUp)).toBeLessThan(first.findIndex(talonOntoColumn));
      expect(second.findLastIndex(talonOntoColumn)).toBeLessThan(second.findIndex(turnUp));
    }
    expect(both).toBeGreaterThan(20);
  });

  it('sends home alone only a card no other card can need, not one that could come straight back', () => {
    const empty = { hidden: [], up: [] };
    const withColumn = (column: { hidden: Card[]; up: Card[] }, clubs = 1): Board => ({
      stock: [],
      waste: [cardOf(9, 1)],
      // 3H and KS may go home; with clubs home to the ace neither is safe (2C and the red queens are out).
      foundations: [home(0, clubs), home(1, 5), home(2, 2), home(3, 12)],
      tableau: [column, ...Array.from({ length: 6 }, () => empty)],
      pass: 1,
    });
    const forced = (board: Board) => {
      const position = new Position(board, HOUSE_RULES);
      const m = safeMove(position);
      return m < 0 ? null : playerMoves(position.draw, m, position.wasteSize, position.talonSize);
    };
    // 3H on 4C could come back onto 4C, KS alone to its empty column: neither goes home alone.
    expect(forced(withColumn({ hidden: [], up: [cardOf(4, 0), cardOf(3, 2)] }))).toBeNull();
    expect(forced(withColumn({ hidden: [], up: [cardOf(13, 3)] }))).toBeNull();
    // With the black twos home (clubs home to 2C, spades to QS), no card can need 3H: it goes home alone.
    expect(forced(withColumn({ hidden: [], up: [cardOf(4, 0), cardOf(3, 2)] }, 2))).toEqual([
      { type: 'move', from: 't1', to: 'fH', count: 1 },
    ]);
  });

  it('wins a deal that sending home alone the cards that could come straight back proved lost', () => {
    // Found by two studies of the same seeds at 1 s and 5 s: one won it; the other, with 3H-like
    // cards sent home alone, proved it lost. Such a card comes back only when a card can be laid
    // on it next, which is not always when it is needed.
    const deck = parseDealString(
      '011102051013094054032044121042034074012072093134053124062083024073133063033043041114022082104092071061112111131122081103091084023064031021123101052113014132',
    );
    if (isDeckError(deck)) throw new Error(deck.problem);
    const solved = solveBoard(layOut(deck), HOUSE_RULES, { nodes: 3_000_000 });
    expect(solved.result).toBe('won');
    if (solved.result === 'won') replayWins(deck, HOUSE_RULES, solved.line);
  });

  it('takes two cards back from their foundations one after the other where a win needs it', () => {
    const cards = (codes: string) => (codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!));
    const column = (hidden: string, up: string) => ({ hidden: cards(hidden), up: cards(up) });
    // Reached from seed 17831 with 9S sent home. 8D must come back onto 9S for 7D, 6D and 5C to
    // follow: 9D comes back onto TS and 9S onto TH before it, and neither is followed by a card
    // laid on it or the card under it on its foundation. Proved lost when only those could follow.
    const board: Board = {
      stock: [],
      waste: cards('2C 5H 3C'),
      foundations: [home(0, 1), home(1, 9), home(2, 3), home(3, 9)],
      tableau: [
        column('', 'KS QH JC TD 9C 8H 7C'),
        column('', 'KD QS JD TS'),
        column('4H 6H', '4C'),
        column('', 'TC 9H 8C'),
        column('', 'KH QC JH'),
        column('', 'KC QD JS TH'),
        column('7H 6C', '5C'),
      ],
      pass: 3,
    };
    const solved = solveBoard(board, HOUSE_RULES);
    expect(solved.result).toBe('won');
    if (solved.result === 'won') expect(isCleared(playOn(board, HOUSE_RULES, solved.line))).toBe(true);
  });

  it('makes a move that leaves an obligation only when something could meet it next', () => {
    const cards = (codes: string) => (codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!));
    const column = (hidden: string, up: string) => ({ hidden: cards(hidden), up: cards(up) });
    // 3H (hearts are home to 3H) may come back onto 4C. Nothing is safe.
    const board = (stock: string, third: string, foundations: Card[][]): Board => ({
      stock: cards(stock),
      waste: [],
      foundations,
      tableau: [
        column('2C', '9S 8H'),
        column('', '9C'),
        column('', third),
        column('', '4C'),
        ...Array.from({ length: 3 }, () => column('', '')),
      ],
      pass: 1,
    });
    const hearts = [[], [], home(2, 3), []];
    const lastMoves = (b: Board) => listed(new Position(b, HOUSE_RULES)).map((moves) => moves.at(-1));
    const back = { type: 'move', from: 'fH', to: 't4', count: 1 };
    // No black 2 could cover 3H and 2H has no black 3 to follow onto: 3H stays home.
    expect(lastMoves(board('5D', '', hearts))).not.toContainEqual(back);
    // 2S in the talon makes it worth it. So does a black 3 that 2H could follow 3H onto, but only
    // when a black ace could then cover 2H.
    expect(lastMoves(board('2S', '', hearts))).toContainEqual(back);
    expect(lastMoves(board('5D', '3S', hearts))).not.toContainEqual(back);
    expect(lastMoves(board('AS', '3S', hearts))).toContainEqual(back);
    // 9D may come back onto TC for 8D to follow it onto 9S, itself home but able to come back first
    // (onto TH): nothing else makes it worth it, and with no spade home it is not.
    const nines = (spades: number, hidden: string): Board => ({
      stock: [],
      waste: [],
      foundations: [[], home(1, 9), [], home(3, spades)],
      tableau: [
        column('', 'TC'),
        column('', 'TH'),
        column(hidden, 'KH'),
        ...Array.from({ length: 4 }, () => column('', '')),
      ],
      pass: 1,
    });
    // The other cards face down under KH, to come up in the order they go home.
    const rest =
      'KS QS JS TS QH JH 9H 8H 7H 6H 5H 4H 3H 2H AH KD QD JD TD KC QC JC 9C 8C 7C 6C 5C 4C 3C 2C AC';
    const nineBack = { type: 'move', from: 'fD', to: 't1', count: 1 };
    expect(lastMoves(nines(9, rest))).toContainEqual(nineBack);
    expect(lastMoves(nines(0, `${rest} 9S 8S 7S 6S 5S 4S 3S 2S AS`))).not.toContainEqual(nineBack);
    // An ace never comes back, even onto a free black 2.
    expect(lastMoves(board('5D', '2S', [[], home(1, 1), [], []]))).not.toContainEqual({
      type: 'move',
      from: 'fD',
      to: 't3',
      count: 1,
    });
    // Without the prunings every such move is made.
    const plain = new Position(board('5D', '', hearts), HOUSE_RULES, false);
    expect(listed(plain).map((moves) => moves.at(-1))).toEqual(
      expect.arrayContaining([{ type: 'move', from: 't1', to: 't2', count: 1 }, back]),
    );
  });

  it('never moves a run from a card to its twin alone, only to send that card home in the same move', () => {
    const cards = (codes: string) => (codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!));
    const column = (hidden: string, up: string) => ({ hidden: cards(hidden), up: cards(up) });
    // 8H lies on 9S; 9C, its twin, is bare.
    const board = (stock: string, third: string, spades: number): Board => ({
      stock: cards(stock),
      waste: [],
      foundations: [[], [], [], home(3, spades)],
      tableau: [
        column('2C', '9S 8H'),
        column('', '9C'),
        column('', third),
        column('', '4C'),
        ...Array.from({ length: 3 }, () => column('', '')),
      ],
      pass: 1,
    });
    const lines = (b: Board, prune = true) => listed(new Position(b, HOUSE_RULES, prune));
    const toTwin = { type: 'move', from: 't1', to: 't2', count: 1 };
    // The board after it is the same as before up to which twin holds 8H, and its key is the same:
    // whatever could use 9S next (8D in the talon or face up) can use 9C now.
    for (const b of [board('5D', '', 0), board('8D', '', 0), board('5D', '8D', 0)]) {
      expect(lines(b).flat()).not.toContainEqual(toTwin);
      // The plain search, with exact keys, makes it.
      expect(lines(b, false)).toContainEqual([toTwin]);
    }
    // With 9S free to go home (spades home to 8), the run moves and 9S goes home, in one move.
    expect(lines(board('5D', '', 8))).toContainEqual([
      toTwin,
      { type: 'move', from: 't1', to: 'fS', count: 1 },
    ]);
  });

  it('finds a position doomed only when some card can never leave, as the exhaustive search confirms', () => {
    const cards = (codes: string) => (codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!));
    const column = (hidden: string, up: string) => ({ hidden: cards(hidden), up: cards(up) });
    const none = () => column('', '');
    // JH needs QS (under JD) or TH home (under JH); JD needs QC (under JH) or TD home (under JH).
    const cycle = (second: ReturnType<typeof column>): Board => ({
      stock: cards('KH QD KD QH KC KS'),
      waste: [],
      foundations: [home(0, 11), home(1, 9), home(2, 9), home(3, 11)],
      tableau: [column('QS', 'JD'), second, ...Array.from({ length: 5 }, none)],
      pass: 1,
    });
    // TH needs 9H home or JC (both under it, once dealt) or JS (home, for good without foundationToTableau).
    const talon = (stock: string, waste: string, pass: number): Board => ({
      stock: cards(stock),
      waste: cards(waste),
      foundations: [home(0, 10), home(1, 13), home(2, 8), home(3, 13)],
      tableau: [column('', 'KC QH'), column('', 'KH QC JH'), ...Array.from({ length: 5 }, none)],
      pass,
    });
    const house = HOUSE_RULES;
    const drawOne: Rules = { draw: 1, passes: 3, foundationToTableau: false };
    const lastPass: Rules = { draw: 3, passes: 1, foundationToTableau: false };
    const cases: [string, Board, Rules, boolean][] = [
      ['a cycle in the tableau', cycle(column('QC TD TH', 'JH')), house, true],
      ['no cycle: QC, on top, takes JH', cycle(column('TD TH', 'QC JH')), house, false],
      ['TH on 9H and JC in the waste, last pass', talon('', 'JC 9H TH', 3), drawOne, true],
      ['the same waste with a pass left', talon('', 'JC 9H TH', 2), drawOne, false],
      // The stock lists its top (first dealt) last: one deal of three lays 9H, JC, then TH on top.
      ['TH dealt last of its three, on JC and 9H', talon('TH JC 9H', '', 1), lastPass, true],
      ['9H dealt last of its three', talon('9H JC TH', '', 1), lastPass, false],
    ];
    for (const [name, board, rules, doomed] of cases) {
      expect(new DeadEnds().isDeadEnd(new Position(board, rules)), name).toBe(doomed);
      // A lost verdict is confirmed by the exhaustive search; a won one by replaying the line.
      if (doomed) expect(bruteForceWinnable(board, rules), name).toBe(false);
      const solved = solveBoard(board, rules);
      expect(solved.result, name).toBe(doomed ? 'lost' : 'won');
      if (solved.result === 'won') expect(isCleared(playOn(board, rules, solved.line)), name).toBe(true);
    }
  });

  it('keeps its key as moves are made and taken back, equal to the key computed afresh', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rules = seed % 3 === 0 ? { ...HOUSE_RULES, draw: 1 as const } : HOUSE_RULES;
      const position = new Position(randomPlay(seed, seed % 40, rules), rules);
      const list = new MoveList();
      computeKey(position);
      const next = mulberry32(seed);
      const moves = new Int32Array(512);
      const key = () => [position.keyHi, position.keyLo];
      for (let step = 0; step < 60; step++) {
        const count = list.generate(position, moves, 0);
        if (count === 0) break;
        const m = moves[next() % count]!;
        const before = remember(position);
        const turnedUp = play(position, m);
        const kept = key();
        computeKey(position);
        expect(key()).toEqual(kept);
        if (step % 5 === 4) {
          // Now and then take the move back: the key is the one from before it.
          takeBack(position, m, turnedUp, before);
          computeKey(position);
          expect(key()).toEqual([before.keyHi, before.keyLo]);
          play(position, m);
        }
      }
    }
  });
});

describe('winnableDeal', () => {
  it('draws deals from its source until the solver wins one, and replays the line', () => {
    let next = 0;
    const found = winnableDeal(() => deckFromSeed(next++), HOUSE_RULES, { perDeal: 100_000 });
    expect(found).not.toBeNull();
    if (found) {
      expect(found.attempts).toBe(next);
      expect(found.deck).toEqual(deckFromSeed(next - 1));
      replayWins(found.deck, HOUSE_RULES, found.line);
    }
  });

  it('gives up after maxAttempts deals it cannot prove, and at the deadline', () => {
    let drawn = 0;
    const never = () => {
      drawn++;
      return deckFromSeed(0);
    };
    expect(winnableDeal(never, HOUSE_RULES, { perDeal: 1, maxAttempts: 7 })).toBeNull();
    expect(drawn).toBe(7);
    drawn = 0;
    let clock = 0;
    expect(winnableDeal(never, HOUSE_RULES, { perDeal: 1, now: () => clock++, deadline: 5 })).toBeNull();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(7);
  });
});

describe('safeAutoplay', () => {
  it('plays only legal moves to the foundations, and only safe ones', () => {
    for (const seed of QUICK_SEEDS) {
      const deck = deckFromSeed(seed);
      const solved = solve(deck, HOUSE_RULES, { nodes: 200_000 });
      if (solved.result !== 'won') continue;
      for (let cut = 0; cut < solved.line.length; cut += 7) {
        const prefix = solved.line.slice(0, cut);
        const state = stateAfter(deck, HOUSE_RULES, prefix);
        const auto = safeAutoplay(state);
        for (const move of auto) {
          expect(move.type).toBe('move');
          if (move.type === 'move') expect(move.to).toMatch(/^f[CDHS]$/);
        }
        const after = checkHistory(deal(deck, null, HOUSE_RULES), [...prefix, ...auto]);
        expect(after.ok).toBe(true);
        // Safe means it cannot cost the game: the solver still wins from there.
        if (after.ok && auto.length > 0 && after.state.status === 'playing') {
          expect(solveBoard(after.state.board, HOUSE_RULES, { nodes: 300_000 }).result).not.toBe('lost');
        }
      }
    }
  });
});

describe('autocomplete', () => {
  it('wins from a position with every card face up', () => {
    const rules = HOUSE_RULES;
    const board = faceUpRuns();
    const line = autocomplete(stateOf(board, rules), { nodes: 200_000 });
    expect(line).not.toBeNull();
    expect(isCleared(playOn(board, rules, line!))).toBe(true);
  });

  it('finishes real games once nothing is face down and the stock has been seen, and not before', () => {
    const deck = deckFromSeed(0);
    const solved = solve(deck, HOUSE_RULES, { nodes: 200_000 });
    expect(solved.result).toBe('won');
    if (solved.result !== 'won') return;
    expect(autocomplete(stateAfter(deck, HOUSE_RULES, []))).toBeNull();
    let finished = 0;
    for (let cut = 0; cut < solved.line.length; cut++) {
      const prefix = solved.line.slice(0, cut);
      const state = stateAfter(deck, HOUSE_RULES, prefix);
      const known =
        state.board.tableau.every((column) => column.hidden.length === 0) &&
        (state.board.stock.length === 0 || state.board.pass >= 2);
      const line = autocomplete(state, { nodes: 200_000 });
      if (!known) expect(line).toBeNull();
      if (line !== null) {
        finished++;
        replayWins(deck, HOUSE_RULES, [...prefix, ...line]);
      }
    }
    expect(finished).toBeGreaterThan(0);
  });
});
