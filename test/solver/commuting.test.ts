import { describe, expect, it } from 'vitest';
import type { Board } from '../../domain/board.js';
import { HOUSE_RULES, type Rules } from '../../domain/rules.js';
import { mulberry32 } from '../../domain/shuffle.js';
import { commutes } from '../../domain/solver/commuting.js';
import { computeKey } from '../../domain/solver/key.js';
import { MoveList } from '../../domain/solver/move-list.js';
import { cardOfMove, kindOf } from '../../domain/solver/packed-moves.js';
import { play, remember, takeBack } from '../../domain/solver/play.js';
import { NO_CARD, Position } from '../../domain/solver/position.js';
import { safeMove } from '../../domain/solver/safety.js';
import { randomPlay } from './positions.js';

const list = new MoveList();
/** The moves the search lists in the position, after `previous` (-1: none). */
const movesOf = (position: Position, previous = -1): number[] => {
  const out = new Int32Array(512);
  return Array.from(out.subarray(0, list.generate(position, out, 0, previous)));
};
/** Everything that tells positions apart: the key, the waste's size, the pass, the card taken back. */
const stateOf = (p: Position): string => [p.keyHi, p.keyLo, p.wasteSize, p.pass, p.takenBack].join(' ');

/**
 * Plays the moves, then every safe move the search would play alone in turn (a safe move loses
 * nothing, so positions are compared once they are played); notes the state reached, and takes all
 * of them back.
 */
function after(position: Position, moves: readonly number[]): string {
  const played: { m: number; before: ReturnType<typeof remember>; turnedUp: number }[] = [];
  const make = (m: number) => {
    const before = remember(position);
    played.push({ m, before, turnedUp: play(position, m) });
  };
  for (const m of moves) make(m);
  for (let safe = safeMove(position); safe >= 0; safe = safeMove(position)) make(safe);
  const state = stateOf(position);
  for (const { m, before, turnedUp } of played.reverse()) takeBack(position, m, turnedUp, before);
  return state;
}

/**
 * What the search reaches from the position by one move (a talon card laid on a column and sent home
 * is the same card sent home from the talon), or by a first move then a second one listed after it,
 * where a first move that forces safe moves is followed by them, then by any move listed there.
 */
function twoMoves(position: Position, first: readonly number[]): Set<string> {
  const reached = new Set<string>(first.map((p) => after(position, [p])));
  for (const p of first) {
    const played: { m: number; before: ReturnType<typeof remember>; turnedUp: number }[] = [];
    const make = (m: number) => {
      const before = remember(position);
      played.push({ m, before, turnedUp: play(position, m) });
    };
    make(p);
    const forced = safeMove(position) >= 0;
    for (let safe = safeMove(position); safe >= 0; safe = safeMove(position)) make(safe);
    for (const m of movesOf(position, forced ? -1 : p)) reached.add(after(position, [m]));
    for (const { m, before, turnedUp } of played.reverse()) takeBack(position, m, turnedUp, before);
  }
  return reached;
}

/** A move by its kind and the card it moves (a run by its bottom card). */
const sameMove = (m: number): string => `${kindOf(m)} ${cardOfMove(m)}`;

/** Whether playing m forces a safe move. */
function forces(position: Position, m: number): boolean {
  const before = remember(position);
  const turnedUp = play(position, m);
  const forced = safeMove(position) >= 0;
  takeBack(position, m, turnedUp, before);
  return forced;
}

describe('moves that commute with the move before them', () => {
  it('are dropped only where the other order, tried from the position before, reaches the same position', () => {
    const ruleSets: Rules[] = [
      HOUSE_RULES,
      { draw: 1, passes: null, foundationToTableau: true },
      { draw: 3, passes: 2, foundationToTableau: false },
    ];
    const dropped = new Map<string, number>();
    for (let seed = 1; seed <= 40; seed++) {
      const rules = ruleSets[seed % ruleSets.length]!;
      const board: Board = randomPlay(seed, seed % 3 === 0 ? 20 : 50, rules);
      const position = new Position(board, rules);
      computeKey(position);
      const next = mulberry32(seed);
      // Along a walk of the search's own moves, each position in turn is the one before.
      for (let step = 0; step < 30; step++) {
        const first = movesOf(position);
        if (first.length === 0) break;
        const reached = twoMoves(position, first);
        // First moves after which the search plays a safe move alone: as a safe move loses nothing,
        // the position after such a move m and then p is as good as one the search reaches after m.
        // (A run that left b with the talon's card on it counts as the same move without that card.)
        const forcedFirst = new Set(first.filter((m) => forces(position, m)).map(sameMove));
        // As in the search: nothing is left out after a move listed alone (a safe move), nor after
        // one that had to meet an obligation.
        if (first.length === 1 || position.takenBack !== NO_CARD) {
          play(position, first[next() % first.length]!);
          continue;
        }
        for (const p of first) {
          const before = remember(position);
          const turnedUp = play(position, p);
          const kept = new Set(movesOf(position, p));
          for (const m of movesOf(position)) {
            if (kept.has(m)) continue;
            expect(commutes(p, m)).toBe(true);
            const pair = `${kindOf(m)} after ${kindOf(p)}`;
            dropped.set(pair, (dropped.get(pair) ?? 0) + 1);
            const reachedOtherwise = reached.has(after(position, [m])) || forcedFirst.has(sameMove(m));
            expect({ seed, step, p, m, reachedOtherwise }).toEqual({
              seed,
              step,
              p,
              m,
              reachedOtherwise: true,
            });
          }
          takeBack(position, p, turnedUp, before);
        }
        play(position, first[next() % first.length]!);
      }
    }
    // Every rule fired: a home move (kind 0) after a talon move (2 home, 3 onto a column) and after
    // a move between columns (1), and a move between columns after each of those.
    for (const pair of ['0 after 1', '0 after 2', '0 after 3', '1 after 1', '1 after 2', '1 after 3']) {
      expect(dropped.get(pair) ?? 0, pair).toBeGreaterThan(5);
    }
  });
});
