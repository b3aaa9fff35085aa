import { describe, expect, it } from 'vitest';
import { toView } from '../../domain/index.js';
import { act, game, play, refusal } from './helpers.js';

const view = (state: Parameters<typeof toView>[0]) => toView(state, 'g');
const mv = (from: string, to: string, count?: number) =>
  ({ type: 'move', from, to, ...(count === undefined ? {} : { count }) }) as const as never;

describe('rule: tableau builds down in alternating colours', () => {
  it('takes a card one rank lower of the other colour', () => {
    const state = game({ tableau: [[], ['', '9H'], ['', '8S'], ['', '8D'], ['', '9S'], ['', '7S']] });
    expect(refusal(state, mv('t3', 't2'))).toBeUndefined(); // 8S on 9H
    expect(refusal(state, mv('t4', 't2'))).toBe('tableau-descending-alternating'); // 8D on 9H: same colour
    expect(refusal(state, mv('t6', 't2'))).toBe('tableau-descending-alternating'); // 7S on 9H: two ranks
    expect(refusal(state, mv('t2', 't3'))).toBe('tableau-descending-alternating'); // up, not down
  });

  it('moves a face-up run that is itself descending and alternating', () => {
    const state = game({
      tableau: [
        ['', 'TC'],
        ['AH', '9H 8S 7D'],
        ['', 'TD'],
      ],
    });
    const after = act(state, mv('t2', 't1', 3));
    expect(view(after).tableau[0]!.cards).toEqual(['TC', '9H', '8S', '7D']);
    expect(refusal(state, mv('t2', 't3', 3))).toBe('tableau-descending-alternating');
    expect(refusal(state, mv('t2', 't3', 2))).toBe('tableau-descending-alternating');
  });

  it('refuses a run that is not in sequence', () => {
    // Not reachable by legal play, but the rule must hold on its own.
    const state = game({
      tableau: [
        ['', 'TC'],
        ['', '9H 8H'],
      ],
    });
    expect(refusal(state, mv('t2', 't1', 2))).toBe('run-not-in-sequence');
  });

  it('moves only face-up cards', () => {
    const state = game({
      tableau: [
        ['', 'TC'],
        ['KS', '9H'],
      ],
    });
    expect(refusal(state, mv('t2', 't1', 2))).toBe('count-exceeds-face-up');
  });
});

describe('rule: an uncovered face-down card turns face up as part of the move', () => {
  it('reveals at once and counts the reveal in the standard score', () => {
    const state = game({
      tableau: [
        ['', 'TC'],
        ['KS 4D', '9H'],
      ],
    });
    const after = act(state, mv('t2', 't1'));
    expect(view(after).tableau[1]).toEqual({ hidden: 1, cards: ['4D'] });
    expect(after.version).toBe(1); // one event: the reveal is not a separate action
    expect(after.score.standard).toBe(5);
  });
});

describe('rule: an empty column takes only a King, or a run whose bottom card is a King', () => {
  it('takes a King and a King-led run, nothing else', () => {
    const state = game({ tableau: [[], ['', 'KH QS'], ['', 'QD'], ['', '5C']], waste: 'KC' });
    expect(refusal(state, mv('t2', 't1', 2))).toBeUndefined();
    expect(refusal(state, mv('waste', 't1'))).toBeUndefined();
    expect(refusal(state, mv('t3', 't1'))).toBe('empty-column-king');
    expect(refusal(state, mv('t2', 't1', 1))).toBe('empty-column-king');
  });
});

describe('rule: foundations build up by suit from Ace to King', () => {
  it('starts with the Ace and takes the next rank of the same suit', () => {
    const state = game({
      waste: '2H AH',
      tableau: [
        ['', '2S'],
        ['', '3H'],
      ],
      foundations: { S: 'AS' },
    });
    const a = act(state, mv('waste', 'foundation'));
    expect(view(a).foundations.H).toEqual(['AH']);
    const b = act(a, mv('waste', 'fH'));
    expect(view(b).foundations.H).toEqual(['AH', '2H']);
    expect(refusal(state, mv('t2', 'fH'))).toBe('foundation-ascending');
    expect(refusal(state, mv('t1', 'fH'))).toBe('foundation-suit');
    expect(refusal(state, mv('t1', 'fS'))).toBeUndefined();
  });

  it('takes one card at a time', () => {
    const state = game({ tableau: [['', '3S 2H']], foundations: { H: 'AH' } });
    expect(refusal(state, mv('t1', 'fH', 2))).toBe('foundation-single-card');
  });

  it('`foundation` resolves to the foundation of the moving card’s suit', () => {
    const state = game({ tableau: [['', 'AD']] });
    const after = act(state, mv('t1', 'foundation'));
    expect(view(after).foundations.D).toEqual(['AD']);
  });
});

describe('rule: the top card of a foundation may come back to the tableau', () => {
  const spec = {
    foundations: { H: 'AH 2H 3H' },
    tableau: [
      ['', '4S'],
      ['', '5C'],
    ] as [string, string][],
  };

  it('is allowed by default and costs 15 standard and 5 vegas', () => {
    const state = game(spec);
    const after = act(state, mv('fH', 't1'));
    expect(view(after).tableau[0]!.cards).toEqual(['4S', '3H']);
    expect(view(after).foundations.H).toEqual(['AH', '2H']);
    expect(after.score.vegas).toBe(-57);
  });

  it('is refused when the rule option is off', () => {
    expect(refusal(game(spec, { foundationToTableau: false }), mv('fH', 't1'))).toBe(
      'foundation-to-tableau-off',
    );
  });

  it('never goes to another foundation, and only one card at a time', () => {
    const state = game(spec);
    expect(refusal(state, mv('fH', 'fS'))).toBe('foundation-to-foundation');
    expect(refusal(state, mv('fH', 't1', 2))).toBe('single-card-source');
  });
});

describe('rule: draw deals up to three, one at a time, the last on top; only the top waste card plays', () => {
  it('deals three with the third on top', () => {
    const state = game({ stock: 'AC 2C 3C 4C' });
    const after = act(state, { type: 'draw' });
    expect(view(after).waste).toEqual(['AC', '2C', '3C']);
    expect(view(after).stock.count).toBe(1);
  });

  it('deals the remaining one or two when fewer than three are left', () => {
    const one = act(game({ stock: 'AC' }), { type: 'draw' });
    expect(view(one).waste).toEqual(['AC']);
    const two = act(game({ stock: 'AC 2C' }), { type: 'draw' });
    expect(view(two).waste).toEqual(['AC', '2C']);
  });

  it('deals one at a time under draw-one rules', () => {
    const after = act(game({ stock: 'AC 2C 3C' }, { draw: 1 }), { type: 'draw' });
    expect(view(after).waste).toEqual(['AC']);
  });

  it('refuses to draw from an empty stock', () => {
    expect(refusal(game({ waste: 'AC' }), { type: 'draw' })).toBe('draw-from-empty-stock');
  });

  it('plays only the top waste card', () => {
    const state = game({ waste: 'KH 2C', tableau: [[]] });
    expect(refusal(state, mv('waste', 't1'))).toBe('empty-column-king'); // 2C is the top
    expect(refusal(state, mv('waste', 't1', 2))).toBe('single-card-source');
  });
});

describe('rule: recycle turns the waste over, unshuffled, only when the stock is empty', () => {
  it('deals the next pass in the same order as the last', () => {
    let state = game({ stock: 'AC 2C 3C 4C 5C' });
    state = play(state, { type: 'draw' }, { type: 'draw' });
    const firstPass = view(state).waste;
    state = act(state, { type: 'recycle' });
    expect(view(state).stock.count).toBe(5);
    expect(view(state).pass).toBe(2);
    state = play(state, { type: 'draw' }, { type: 'draw' });
    expect(view(state).waste).toEqual(firstPass);
  });

  it('refuses while the stock has cards, or with nothing in the waste', () => {
    expect(refusal(game({ stock: 'AC', waste: '2C' }), { type: 'recycle' })).toBe(
      'recycle-needs-empty-stock',
    );
    expect(refusal(game({}), { type: 'recycle' })).toBe('recycle-needs-waste');
  });
});

describe('rule: three passes through the deck in all', () => {
  it('allows two recycles and refuses a fourth pass', () => {
    let state = game({ stock: 'AC' });
    for (let pass = 1; pass <= 3; pass++) {
      expect(view(state).pass).toBe(pass);
      expect(view(state).recyclesLeft).toBe(3 - pass);
      state = act(state, { type: 'draw' });
      if (pass < 3) state = act(state, { type: 'recycle' });
    }
    expect(refusal(state, { type: 'recycle' })).toBe('pass-limit');
  });

  it('honours other pass limits and unlimited passes', () => {
    expect(refusal(game({ waste: 'AC' }, { passes: 1 }), { type: 'recycle' })).toBe('pass-limit');
    const unlimited = game({ waste: 'AC', pass: 500 }, { passes: null });
    expect(refusal(unlimited, { type: 'recycle' })).toBeUndefined();
    expect(view(unlimited).recyclesLeft).toBeNull();
  });
});

describe('rule: the game is won with all 52 cards on the foundations, then takes no action', () => {
  const nearlyWon = () =>
    game({
      foundations: {
        C: 'AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC',
        D: 'AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD',
        H: 'AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH',
        S: 'AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS',
      },
      tableau: [['', 'KS']],
    });

  it('is won by the last card', () => {
    const won = act(nearlyWon(), mv('t1', 'foundation'));
    expect(won.status).toBe('won');
    expect(view(won).legalMoves).toEqual([]);
    for (const command of [
      { type: 'draw' },
      { type: 'undo' },
      { type: 'redo' },
      { type: 'resign' },
    ] as const) {
      expect(refusal(won, command)).toBe('game-over');
    }
  });

  it('a resigned game takes no action either', () => {
    const resigned = act(nearlyWon(), { type: 'resign' });
    expect(resigned.status).toBe('resigned');
    expect(refusal(resigned, mv('t1', 'foundation'))).toBe('game-over');
    expect(refusal(resigned, { type: 'undo' })).toBe('game-over');
  });
});

describe('rule: moves name real piles', () => {
  it('refuses unknown piles and moves onto the same pile', () => {
    const state = game({ tableau: [['', 'KS']] });
    expect(refusal(state, mv('t8', 't1'))).toBe('unknown-pile');
    expect(refusal(state, mv('t1', 'waste'))).toBe('unknown-pile');
    expect(refusal(state, mv('t1', 't1'))).toBe('same-pile');
    expect(refusal(state, mv('t2', 't1'))).toBe('empty-source');
    expect(refusal(state, mv('t2', 'foundation'))).toBe('empty-source');
  });
});

describe('scores', () => {
  it('standard: +5 waste to tableau, +10 to a foundation, +5 a reveal, -15 back from a foundation, never below 0', () => {
    let state = game({
      waste: 'AH QD',
      tableau: [
        ['', 'KS'],
        ['4C', '2H'],
        ['', '3C'],
      ],
    });
    state = act(state, mv('waste', 't1')); // +5
    expect(state.score.standard).toBe(5);
    state = act(state, mv('waste', 'foundation')); // +10
    expect(state.score.standard).toBe(15);
    state = act(state, mv('t2', 'foundation')); // +10 and a reveal +5
    expect(state.score.standard).toBe(30);
    expect(state.score.vegas).toBe(-52 + 10);
    state = act(state, mv('fH', 't3')); // 2H back onto 3C: -15
    expect(state.score.standard).toBe(15);
    expect(state.score.vegas).toBe(-52 + 5);
    const low = act(game({ foundations: { H: 'AH' }, tableau: [['', '2S']] }), mv('fH', 't1'));
    expect(low.score.standard).toBe(0); // 0 - 15 stays at 0
    expect(low.score.vegas).toBe(-57);
    // What follows counts on from 0, not from -15.
    expect(act(low, mv('t1', 'foundation')).score.standard).toBe(10);
  });
});
