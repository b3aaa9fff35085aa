import { describe, expect, it } from 'vitest';
import { applyMove, type Board } from '../../domain/board.js';
import { type Card, cardOf, fitsOn, rankOf, suitOf } from '../../domain/cards.js';
import type { Rules } from '../../domain/rules.js';
import { mulberry32 } from '../../domain/shuffle.js';
import { permutations } from '../../domain/solver/knowledge.js';
import { playerMoves } from '../../domain/solver/line.js';
import { Position } from '../../domain/solver/position.js';
import { neverNeeded, safeMove } from '../../domain/solver/safety.js';
import { bruteForceWinnable } from './positions.js';

/** For each card, the cards that may lie on it in the tableau. */
const lyingOn: Card[][] = Array.from({ length: 52 }, (_, card) =>
  Array.from({ length: 52 }, (_, other) => other).filter((other) => fitsOn(other, card)),
);

/**
 * The safe-move rule as its documentation states it, from the tableau rule alone (`fitsOn`) and
 * nothing of the rank arithmetic in `neverNeeded`: a card is needed when a card that is not home could
 * be laid on it, or, when cards may come back from the foundations, a card that is home could be laid
 * on it and is itself needed. Worked out for every card at once, lowest ranks first.
 */
function neededCards(heights: readonly number[], foundationToTableau: boolean): boolean[] {
  const needed = new Array<boolean>(52).fill(false);
  for (let rank = 1; rank <= 13; rank++) {
    for (let suit = 0; suit < 4; suit++) {
      const card = cardOf(rank, suit);
      needed[card] = lyingOn[card]!.some(
        (other) => heights[suitOf(other)]! < rankOf(other) || (foundationToTableau && needed[other]!),
      );
    }
  }
  return needed;
}

/**
 * A small position for the exhaustive search: a few cards off the top of the foundations, some in
 * the talon, the rest in short columns (one face up, some face down under it), in one of the last
 * passes of 2 or 3. Without cards back from the foundations: with them, the cards home come down onto
 * the columns and the positions grow beyond what the exhaustive search can list (the rule's part for
 * them is checked above, against its statement).
 */
function smallPosition(seed: number): { board: Board; rules: Rules } {
  const next = mulberry32(seed * 7919 + 17);
  const pick = (n: number) => next() % n;
  const heights = [13, 13, 13, 13];
  const out: Card[] = [];
  const target = 5 + pick(3);
  while (out.length < target) {
    const suit = pick(4);
    if (heights[suit] === 0) continue;
    out.push(cardOf(heights[suit]!, suit));
    heights[suit]!--;
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  const talon = out.splice(0, Math.min(out.length, 3 + pick(4)));
  const wasteSize = pick(talon.length + 1);
  const tableau = Array.from({ length: 7 }, () => ({ hidden: [] as Card[], up: [] as Card[] }));
  for (let a = 0; out.length > 0; a = (a + 1) % 7) {
    const cards = out.splice(0, 1 + pick(2));
    tableau[a] = { hidden: cards.slice(0, -1), up: cards.slice(-1) };
  }
  const passes = 2 + pick(2);
  const rules: Rules = { draw: pick(4) === 0 ? 1 : 3, passes, foundationToTableau: false };
  const board: Board = {
    stock: talon.slice(wasteSize).reverse(),
    waste: talon.slice(0, wasteSize),
    foundations: heights.map((height, suit) => Array.from({ length: height }, (_, r) => cardOf(r + 1, suit))),
    tableau,
    pass: Math.max(1, passes - pick(3)),
  };
  return { board, rules };
}

/**
 * Every position with `n` cards off the foundations (the top cards of their suits, in every split
 * between the suits), all in the talon in every order, with every waste size whose top may go home,
 * under draw 3 with 2 passes, in either pass.
 */
function* talonPositions(n: number): Generator<{ board: Board; rules: Rules; name: string }> {
  const rules: Rules = { draw: 3, passes: 2, foundationToTableau: false };
  for (let code = 0; code < (n + 1) ** 4; code++) {
    const split = [0, 1, 2, 3].map((suit) => Math.floor(code / (n + 1) ** suit) % (n + 1));
    if (split.reduce((sum, k) => sum + k, 0) !== n) continue;
    const heights = split.map((k) => 13 - k);
    const out = split.flatMap((k, suit) => Array.from({ length: k }, (_, i) => cardOf(14 - k + i, suit)));
    for (const talon of permutations(out)) {
      for (let wasteSize = 1; wasteSize <= n; wasteSize++) {
        const top = talon[wasteSize - 1]!;
        if (heights[suitOf(top)] !== rankOf(top) - 1) continue;
        for (const pass of [1, 2]) {
          const board: Board = {
            stock: talon.slice(wasteSize).reverse(),
            waste: talon.slice(0, wasteSize),
            foundations: heights.map((height, suit) =>
              Array.from({ length: height }, (_, r) => cardOf(r + 1, suit)),
            ),
            tableau: Array.from({ length: 7 }, () => ({ hidden: [], up: [] })),
            pass,
          };
          yield { board, rules, name: `talon ${talon.join(',')}, waste ${wasteSize}, pass ${pass}` };
        }
      }
    }
  }
}

describe('safe moves to the foundations', () => {
  it('are the cards the documented rule calls never needed, for every card and every foundation', () => {
    let safe = 0;
    let unsafe = 0;
    for (let code = 0; code < 14 ** 4; code++) {
      const heights = [0, 1, 2, 3].map((suit) => Math.floor(code / 14 ** suit) % 14);
      for (const foundationToTableau of [false, true]) {
        const needed = neededCards(heights, foundationToTableau);
        // The card of each suit that may go home next.
        for (let suit = 0; suit < 4; suit++) {
          if (heights[suit] === 13) continue;
          const card = cardOf(heights[suit]! + 1, suit);
          const expected = !needed[card];
          if (neverNeeded(card, heights, foundationToTableau) !== expected) {
            expect({ card, heights, foundationToTableau, neverNeeded: !expected }).toEqual({
              card,
              heights,
              foundationToTableau,
              neverNeeded: expected,
            });
          }
          if (expected) safe++;
          else unsafe++;
        }
      }
    }
    expect(safe).toBeGreaterThan(10_000);
    expect(unsafe).toBeGreaterThan(10_000);
  });

  it('never lose a win: the exhaustive search of the legal moves wins after a safe move whenever before it', () => {
    const checked = { tableau: 0, wasteLastPass: 0, wasteDrawOne: 0 };
    const check = (board: Board, rules: Rules, name: string) => {
      const solver = new Position(board, rules);
      const m = safeMove(solver);
      if (m < 0) return;
      const moves = playerMoves(solver.draw, m, solver.wasteSize, solver.talonSize);
      if (bruteForceWinnable(board, rules, 3_000) !== true) return;
      const after = moves.reduce((b, move) => applyMove(b, rules, move).board, board);
      expect({ name, moves, winsAfter: bruteForceWinnable(after, rules) }).toEqual({
        name,
        moves,
        winsAfter: true,
      });
      const fromWaste = moves[0]!.type === 'move' && moves[0]!.from === 'waste';
      if (!fromWaste) checked.tableau++;
      else if (rules.draw === 1) checked.wasteDrawOne++;
      else checked.wasteLastPass++;
    };
    for (let seed = 1; seed <= 400; seed++) {
      const { board, rules } = smallPosition(seed);
      check(board, rules, `small position ${seed}`);
    }
    // Every position of four cards, all in the talon, in the last two passes of draw 3: where taking
    // the waste's top out changes what the last pass deals together.
    for (const { board, rules, name } of talonPositions(4)) check(board, rules, name);
    // Each kind of safe move was checked on winnable positions, many times.
    expect(checked.tableau).toBeGreaterThan(30);
    expect(checked.wasteLastPass).toBeGreaterThan(100);
    expect(checked.wasteDrawOne).toBeGreaterThan(5);
  });
});
