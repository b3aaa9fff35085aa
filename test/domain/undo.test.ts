import { describe, expect, it } from 'vitest';
import { deal, deckFromSeed, fold, HOUSE_RULES, toView } from '../../domain/index.js';
import { act, game, play, refusal } from './helpers.js';

const comparable = ({ version: _version, ...rest }: ReturnType<typeof toView>) => rest;

describe('undo and redo', () => {
  it('undo restores face-down state, reveal included, and the score', () => {
    const before = game({
      tableau: [
        ['', 'TC'],
        ['KS 4D', '9H'],
      ],
    });
    const moved = act(before, { type: 'move', from: 't2', to: 't1' });
    const undone = act(moved, { type: 'undo' });
    expect(undone.board).toEqual(before.board);
    expect(undone.score).toEqual(before.score);
    expect(undone.version).toBe(2); // undo is an event of its own
  });

  it('undo of a draw puts the cards back on the stock in order; of a recycle, the waste back', () => {
    const start = game({ stock: 'AC 2C 3C 4C' });
    const drawn = play(start, { type: 'draw' }, { type: 'draw' });
    const recycled = act(drawn, { type: 'recycle' });
    expect(act(recycled, { type: 'undo' }).board).toEqual(drawn.board);
    expect(play(recycled, { type: 'undo' }, { type: 'undo' }, { type: 'undo' }).board).toEqual(start.board);
  });

  it('undoes any number of steps back to the deal, then has nothing to undo', () => {
    let state = fold([deal(deckFromSeed(7), 7, HOUSE_RULES)]);
    const dealt = state;
    for (let i = 0; i < 12; i++) state = act(state, toView(state, 'g').legalMoves[0]!);
    for (let i = 0; i < 12; i++) state = act(state, { type: 'undo' });
    expect(state.board).toEqual(dealt.board);
    expect(refusal(state, { type: 'undo' })).toBe('nothing-to-undo');
  });

  it('redo replays undone moves in order, and a new move clears the redo line', () => {
    const start = game({ stock: 'AC 2C 3C 4C 5C 6C 7C', tableau: [['', 'KH']] });
    const two = play(start, { type: 'draw' }, { type: 'draw' });
    const back = play(two, { type: 'undo' }, { type: 'undo' });
    expect(toView(back, 'g').canRedo).toBe(true);
    const again = play(back, { type: 'redo' }, { type: 'redo' });
    expect(comparable(toView(again, 'g'))).toEqual(comparable(toView(two, 'g')));
    expect(refusal(again, { type: 'redo' })).toBe('nothing-to-redo');
    const branched = play(two, { type: 'undo' }, { type: 'draw' });
    expect(refusal(branched, { type: 'redo' })).toBe('nothing-to-redo');
  });

  it('counts moves in effect and reports canUndo/canRedo', () => {
    const start = game({ stock: 'AC 2C 3C 4C' });
    expect(toView(start, 'g')).toMatchObject({ moves: 0, canUndo: false, canRedo: false });
    const drawn = act(start, { type: 'draw' });
    expect(toView(drawn, 'g')).toMatchObject({ moves: 1, canUndo: true, canRedo: false });
    const undone = act(drawn, { type: 'undo' });
    expect(toView(undone, 'g')).toMatchObject({ moves: 0, canUndo: false, canRedo: true });
  });
});
