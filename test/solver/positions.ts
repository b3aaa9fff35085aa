import { applyMove, type Board, isCleared, layOut, listMoves } from '../../domain/board.js';
import { type Card, cardOf, parseCard } from '../../domain/cards.js';
import type { Rules } from '../../domain/rules.js';
import { deckFromSeed, mulberry32 } from '../../domain/shuffle.js';

/**
 * Every position reachable from `board` through the domain's legal moves: is any of them won?
 * Undefined when there are more than `limit` of them (callers skip such positions). This is the
 * reference the solver is checked against: it knows nothing of macro-moves, safe moves or dominance.
 */
export function bruteForceWinnable(board: Board, rules: Rules, limit = 20_000): boolean | undefined {
  const key = (b: Board) =>
    [
      b.foundations.map((cards) => cards.length).join(','),
      b.tableau.map((column) => `${column.hidden.length}:${column.up.join(',')}`).join('/'),
      b.stock.join(','),
      b.waste.join(','),
      rules.passes === null ? 0 : b.pass,
    ].join('|');
  const seen = new Set<string>([key(board)]);
  const queue = [board];
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (isCleared(current)) return true;
    for (const move of listMoves(current, rules)) {
      const next = applyMove(current, rules, move).board;
      const k = key(next);
      if (!seen.has(k)) {
        if (seen.size >= limit) return undefined;
        seen.add(k);
        queue.push(next);
      }
    }
  }
  return false;
}

/** The position after `steps` random legal moves from a numbered deal (fewer if none is left). */
export function randomPlay(seed: number, steps: number, rules: Rules): Board {
  const next = mulberry32(seed ^ 0x5a5a5a5a);
  let board = layOut(deckFromSeed(seed));
  for (let i = 0; i < steps; i++) {
    const moves = listMoves(board, rules);
    if (moves.length === 0) break;
    board = applyMove(board, rules, moves[next() % moves.length]!).board;
  }
  return board;
}

/**
 * Every card face up, nothing in the stock: four columns of K..2 in alternating colours, the aces on
 * the waste, three columns empty. A win for anyone who looks.
 */
export function faceUpRuns(): Board {
  const run = (suits: [number, number]) =>
    Array.from({ length: 12 }, (_, i) => cardOf(13 - i, suits[i % 2]!)).filter((card) => card % 13 !== 0);
  return {
    stock: [],
    waste: [cardOf(1, 0), cardOf(1, 1), cardOf(1, 2), cardOf(1, 3)],
    foundations: [[], [], [], []],
    tableau: [
      { hidden: [], up: run([0, 1]) },
      { hidden: [], up: run([1, 0]) },
      { hidden: [], up: run([2, 3]) },
      { hidden: [], up: run([3, 2]) },
      ...Array.from({ length: 3 }, () => ({ hidden: [], up: [] })),
    ],
    pass: 1,
  };
}

/** Cards from their codes, separated by spaces ('' for none). */
export const cardsOf = (codes: string): Card[] =>
  codes === '' ? [] : codes.split(' ').map((code) => parseCard(code)!);

/**
 * A board written in card codes: the foundations by suit (C D H S), each column as its face-down
 * cards and its face-up ones, bottom to top; the columns not given are empty.
 */
export function boardOf(spec: {
  readonly stock?: string;
  readonly waste?: string;
  readonly foundations: readonly [string, string, string, string];
  readonly columns: readonly (readonly [string, string])[];
  readonly pass: number;
}): Board {
  const columns = Array.from({ length: 7 }, (_, a) => spec.columns[a] ?? ['', '']);
  return {
    stock: cardsOf(spec.stock ?? ''),
    waste: cardsOf(spec.waste ?? ''),
    foundations: spec.foundations.map(cardsOf),
    tableau: columns.map(([down, up]) => ({ hidden: cardsOf(down), up: cardsOf(up) })),
    pass: spec.pass,
  };
}
