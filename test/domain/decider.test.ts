import { describe, expect, it } from 'vitest';
import {
  type Command,
  deal,
  decide,
  deckFromSeed,
  fold,
  type GameEvent,
  HOUSE_RULES,
  isViolation,
  MAX_ACTIONS,
  type RuleName,
  toView,
} from '../../domain/index.js';

/**
 * The decider as Emmett writes its tests: given the events so far, when a command comes, then the
 * events it appends, or the rule it breaks. Seed 1's deal: 3 passes of draw 3; 9C face up on t1.
 */
const dealt = deal(deckFromSeed(1), 1, HOUSE_RULES);
const given = (...events: GameEvent[]) => ({
  when: (command: Command) => {
    const decided = decide(fold([dealt, ...events]), command);
    return {
      thenAppends: (expected: GameEvent) => expect(decided).toEqual(expected),
      thenRefused: (rule: RuleName) => expect(isViolation(decided) && decided.rule).toBe(rule),
    };
  },
});

const drawn: GameEvent = { type: 'drawn', data: {} };
const recycled: GameEvent = { type: 'recycled', data: {} };
const undone = (event: GameEvent & { type: 'drawn' | 'recycled' }): GameEvent => ({
  type: 'undone',
  data: { move: { type: event.type === 'drawn' ? 'draw' : 'recycle' } },
});
const pass = Array.from({ length: 8 }, () => drawn);

describe('given a deal', () => {
  it('when a draw: then drawn', () => given().when({ type: 'draw' }).thenAppends(drawn));
  it('when a recycle: then refused, the stock is not empty', () =>
    given().when({ type: 'recycle' }).thenRefused('recycle-needs-empty-stock'));
  it('when an undo: then refused, nothing to undo', () =>
    given().when({ type: 'undo' }).thenRefused('nothing-to-undo'));
  it('when a redo: then refused, nothing to redo', () =>
    given().when({ type: 'redo' }).thenRefused('nothing-to-redo'));
  it('when 9C (t1) to "foundation": then refused, the foundation of clubs needs its Ace first', () =>
    given().when({ type: 'move', from: 't1', to: 'foundation' }).thenRefused('foundation-ascending'));
  it('when a resign: then resigned', () =>
    given().when({ type: 'resign' }).thenAppends({ type: 'resigned', data: {} }));
});

describe('given a pass dealt through', () => {
  it('when a draw: then refused, the stock is empty', () =>
    given(...pass)
      .when({ type: 'draw' })
      .thenRefused('draw-from-empty-stock'));
  it('when a recycle: then recycled', () =>
    given(...pass)
      .when({ type: 'recycle' })
      .thenAppends(recycled));
  it('after three passes, when a recycle: then refused, the pass limit', () =>
    given(...pass, recycled, ...pass, recycled, ...pass)
      .when({ type: 'recycle' })
      .thenRefused('pass-limit'));
});

describe('given moves, undos and redos', () => {
  it('when an undo: then undone, naming the move taken back', () =>
    given(drawn).when({ type: 'undo' }).thenAppends(undone(drawn)));
  it('after an undo, when a redo: then redone', () =>
    given(drawn, undone(drawn))
      .when({ type: 'redo' })
      .thenAppends({ type: 'redone', data: { move: { type: 'draw' } } }));
  it('after an undo and a new move, when a redo: then refused (the new move cleared the redo line)', () =>
    given(drawn, undone(drawn), drawn).when({ type: 'redo' }).thenRefused('nothing-to-redo'));
});

describe('given a finished game', () => {
  for (const command of [
    { type: 'draw' },
    { type: 'undo' },
    { type: 'redo' },
    { type: 'resign' },
  ] as Command[]) {
    it(`when ${command.type}: then refused, the game is over`, () =>
      given(drawn, { type: 'resigned', data: {} }).when(command).thenRefused('game-over'));
  }
});

describe(`given ${MAX_ACTIONS} actions`, () => {
  const long = Array.from({ length: MAX_ACTIONS }, (_, i) => (i % 2 === 0 ? drawn : undone(drawn)));
  it('when any action: then refused, the game is too long', () => {
    given(...long)
      .when({ type: 'draw' })
      .thenRefused('game-too-long');
    given(...long)
      .when({ type: 'resign' })
      .thenRefused('game-too-long');
  });
  it('its view offers nothing: no legal move, no undo, no redo (each would be refused)', () => {
    const view = toView(fold([dealt, ...long]), 'g');
    expect(view.status).toBe('playing');
    expect(view).toMatchObject({ legalMoves: [], canUndo: false, canRedo: false });
    const fewer = toView(fold([dealt, ...long.slice(0, -1)]), 'g');
    expect(fewer.legalMoves.length).toBeGreaterThan(0);
    expect(fewer.canUndo).toBe(true);
  });
  it('one action fewer, when an undo: then undone', () =>
    given(...long.slice(0, -1))
      .when({ type: 'undo' })
      .thenAppends(undone(drawn)));
});
