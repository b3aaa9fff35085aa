import { describe, expect, it } from 'vitest';
import { type Card, parseDeck } from '../../domain/cards.js';
import type { GameEvent } from '../../domain/events.js';
import { deal, decide, evolve, fold, type GameState, legalMoves } from '../../domain/game.js';
import type { Command, PlayedMove } from '../../domain/moves.js';
import { checkHistory } from '../../domain/replay.js';
import { HOUSE_RULES } from '../../domain/rules.js';
import { deckFromSeed, mulberry32 } from '../../domain/shuffle.js';
import { type AnalysisBudget, analyse, solve, solveBoard } from '../../domain/solver/index.js';
import { isViolation } from '../../domain/violations.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };

const BUDGET: AnalysisBudget = { dealNodes: 1_000_000, positionNodes: 50_000, maxPositionNodes: 800_000 };

/** The log of a game: its deal, then each command as the live game decides it. */
function logOf(deck: readonly Card[], commands: readonly Command[]): GameEvent[] {
  const events: GameEvent[] = [deal(deck, null, HOUSE_RULES)];
  let state = fold(events);
  for (const command of commands) {
    const event = decide(state, command);
    if (isViolation(event)) throw new Error(`illegal: ${JSON.stringify(command)}`);
    events.push(event);
    state = evolve(state, event);
  }
  return events;
}

const replaysToWin = (deck: readonly Card[], line: readonly PlayedMove[]) => {
  const result = checkHistory(deal(deck, null, HOUSE_RULES), line);
  return result.ok && result.state.status === 'won';
};

const fixtureDeck = parseDeck(fixtures.lines[0]!.deck) as Card[];
const fixtureLine = fixtures.lines[0]!.moves as PlayedMove[];
const resign: Command = { type: 'resign' };

describe('analyse', () => {
  it('on a won game: winnable, a line that wins, and the final version', () => {
    const events = logOf(fixtureDeck, fixtureLine);
    expect(fold(events).status).toBe('won');
    const analysis = analyse(events, BUDGET);
    expect(analysis.verdict).toBe('winnable');
    expect(replaysToWin(fixtureDeck, analysis.line!)).toBe(true);
    expect(analysis.lastWinnableVersion).toBe(events.length - 1);
  });

  it('on a game resigned while it could still be won: the version before the resignation', () => {
    const events = logOf(fixtureDeck, [...fixtureLine.slice(0, 10), resign]);
    const analysis = analyse(events, BUDGET);
    expect(analysis.verdict).toBe('winnable');
    expect(replaysToWin(fixtureDeck, analysis.line!)).toBe(true);
    expect(analysis.lastWinnableVersion).toBe(10);
  });

  it('on a deal proved lost: lost, no line, no version', () => {
    // Seed 1's deal is lost under the house rules (the solver proves it within the budget).
    const deck = deckFromSeed(1);
    expect(solve(deck, HOUSE_RULES, { nodes: 1_000_000 }).result).toBe('lost');
    const analysis = analyse(logOf(deck, [{ type: 'draw' }, { type: 'draw' }, resign]), BUDGET);
    expect(analysis).toEqual({ verdict: 'lost', line: null, lastWinnableVersion: null });
  });

  it('finds the last winnable version of a history with undos, as solving every version does', () => {
    let checked = 0;
    for (const seed of [2, 17]) {
      // Random play, with an undo now and then, so that some positions are abandoned.
      const next = mulberry32(seed + 99);
      const deck = deckFromSeed(seed);
      const commands: Command[] = [];
      let state: GameState = fold(logOf(deck, []));
      for (let i = 0; i < 90; i++) {
        const moves = legalMoves(state);
        const tableau = moves.filter((move) => move.type === 'move');
        const command: Command | undefined =
          i > 3 && next() % 5 === 0 && state.done
            ? { type: 'undo' }
            : tableau.length > 0 && next() % 3 !== 0
              ? tableau[next() % tableau.length]
              : moves[next() % moves.length];
        if (command === undefined) break;
        commands.push(command);
        state = fold(logOf(deck, commands));
      }
      const events = logOf(deck, [...commands, resign]);
      expect(events.some((event) => event.type === 'undone')).toBe(true);
      const analysis = analyse(events, BUDGET);
      // The reference: solve the position of every version, latest first (the resignation aside).
      let truth: number | null = null;
      for (let version = events.length - 2; version >= 0 && truth === null; version--) {
        const { board } = fold(events.slice(0, version + 1));
        const verdict = solveBoard(board, HOUSE_RULES, { nodes: 3_000_000 }).result;
        expect(verdict).not.toBe('unknown');
        if (verdict === 'won') truth = version;
      }
      expect(analysis.lastWinnableVersion).toBe(truth);
      expect(truth).not.toBe(events.length - 2);
      if (analysis.verdict === 'winnable') expect(replaysToWin(deck, analysis.line!)).toBe(true);
      checked++;
    }
    expect(checked).toBe(2);
  });

  it('says unknown rather than guessing when the budget runs out', () => {
    const events = logOf(fixtureDeck, [...fixtureLine.slice(0, 10), resign]);
    const analysis = analyse(events, { dealNodes: 10, positionNodes: 10, maxPositionNodes: 10 });
    expect(analysis).toEqual({ verdict: 'unknown', line: null, lastWinnableVersion: 'unknown' });
  });

  it('refuses a game in play', () => {
    expect(() => analyse(logOf(fixtureDeck, fixtureLine.slice(0, 5)), BUDGET)).toThrow(/finished/);
  });
});
