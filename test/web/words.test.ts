/**
 * The web client's words, without a browser: every problem type the API (and its local runtime)
 * can answer and every rule a move can break gets a sentence of its own, free of codes; hints and
 * moves name cards as 4♦ and piles as a player does; the cautious rule of autoplay is explained.
 */
import { describe, expect, it } from 'vitest';
import type { Hint, Problem, View } from '../../client/types.js';
import {
  actedWords,
  autoplayWords,
  dealRefusedWords,
  doneWords,
  hintWords,
  isLostReason,
  moveWords,
  pickedUpWords,
  plainText,
  problemWords,
  ruleWords,
} from '../../client/web/src/words.js';
import { RULES } from '../../domain/violations.js';
import { PROBLEM_TYPES } from '../../functions/http/problem.js';

type Rule = NonNullable<Problem['rule']>;

/** What no sentence may hold (client/README.md: no pile codes, card codes, HTTP or JSON words, rule codes). */
const CODES = [
  /\b(t[1-7]|f[CDHS])\b/,
  /(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])/,
  /\b(If-Match|ETag|Authorization|token|schema|body|JSON|HTTP|problem|undefined|null)\b/i,
  // Codes that are words of English too (busy, conflict, forbidden) may stand as such.
  ...[...Object.keys(RULES), ...Object.keys(PROBLEM_TYPES)]
    .filter((code) => code.includes('-'))
    .map((code) => new RegExp(`\\b${code}\\b`)),
];
const plain = (text: string) => {
  for (const code of CODES) expect(text, text).not.toMatch(code);
  return text;
};

const view = (extra: Partial<View> = {}): View => ({
  id: 'g1',
  version: 3,
  status: 'playing',
  rules: { draw: 3, passes: 3, foundationToTableau: true },
  stock: { count: 20 },
  waste: ['7D', '2C'],
  foundations: { C: ['AC'], D: [], H: [], S: [] },
  tableau: [
    { hidden: 0, cards: ['4H'] },
    { hidden: 1, cards: ['3S'] },
    { hidden: 2, cards: ['KD'] },
    { hidden: 3, cards: ['9C', '8D', '7S'] },
    { hidden: 4, cards: ['QH'] },
    { hidden: 5, cards: ['4D'] },
    { hidden: 0, cards: [] },
  ],
  pass: 1,
  recyclesLeft: 2,
  moves: 3,
  score: { vegas: -47, standard: 10 },
  canUndo: true,
  canRedo: false,
  legalMoves: [],
  ...extra,
});

describe('the words of the web client', () => {
  it('says why a deal asked for in New game cannot be dealt, for what was given', () => {
    expect(dealRefusedWords({ seed: 4294967296 })).toBe(
      'That seed cannot be dealt: a seed is a whole number from 0 to 4294967295.',
    );
    expect(dealRefusedWords({ deck: ['AS', '2S'] })).toBe(
      'That deck has 2 cards: a deal is the 52 cards, each once.',
    );
    expect(dealRefusedWords({ deck: ['XX'] })).toBe(
      '“XX” is not a card: write each card as its rank and then its suit, such as 10♥ (10H or TH), Q♠ (QS) or A♦ (AD).',
    );
    expect(dealRefusedWords({ deck: ['AS', 'TH', 'AS'] })).toBe(
      'A♠ is there twice: a deal is the 52 cards, each once.',
    );
    expect(dealRefusedWords({ deck: '123' })).toMatch(/^Those 3 digits are not a deal: a deal is 156 digits/);
    expect(dealRefusedWords({ deck: Array(52).fill('AS') })).toMatch(/^A♠ is there twice/);
    // 52 cards, each once, that the API refused all the same: the general words.
    expect(
      dealRefusedWords({
        deck: [...'CDHS'].flatMap((suit) => [...'A23456789TJQK'].map((rank) => `${rank}${suit}`)),
      }),
    ).toMatch(/^That deck is not a deal: it needs each/);
  });

  it('has a sentence of its own for every problem type, none of them the fallback', () => {
    const fallback = problemWords(400, { type: '/problems/something-else' });
    const sentences = new Set<string>();
    for (const [type, { status }] of Object.entries(PROBLEM_TYPES)) {
      const text = plain(
        problemWords(status, { type: `/problems/${type}`, detail: 'If-Match "8" was 9 (t3, 4D)' }),
      );
      expect(text, type).not.toBe(fallback);
      sentences.add(text);
    }
    expect(sentences.size).toBe(Object.keys(PROBLEM_TYPES).length);
    expect(plain(problemWords(0, {}))).toMatch(/cannot be reached/);
    expect(plain(problemWords(503, {}))).toMatch(/Try again/);
  });

  it('has a sentence for every rule, naming the cards of the move refused', () => {
    const table = view();
    for (const rule of Object.keys(RULES) as Rule[])
      plain(ruleWords(rule, { type: 'move', from: 't4', to: 't1', count: 1 }, table));
    expect(ruleWords('tableau-descending-alternating', { type: 'move', from: 't2', to: 't6' }, table)).toBe(
      '3♠ does not go on 4♦: it must be one rank lower and of the other colour.',
    );
    expect(ruleWords('foundation-ascending', { type: 'move', from: 't6', to: 'fD' }, table)).toBe(
      '4♦ cannot go home yet: its foundation takes A♦ next.',
    );
    expect(ruleWords('foundation-suit', { type: 'move', from: 't1', to: 'fC' }, table)).toBe(
      '4♥ does not go on the clubs foundation: each foundation takes one suit.',
    );
    expect(
      ruleWords('pass-limit', undefined, view({ rules: { draw: 3, passes: 1, foundationToTableau: true } })),
    ).toBe('No pass is left: the deck has been dealt once, as these rules allow.');
  });

  it('says moves as a player does', () => {
    const table = view();
    expect(moveWords({ type: 'move', from: 't2', to: 't1', count: 1 }, table)).toBe('Put 3♠ on 4♥');
    expect(moveWords({ type: 'move', from: 'waste', to: 'fC', count: 1 }, table)).toBe('Put 2♣ home');
    expect(moveWords({ type: 'move', from: 't3', to: 't7', count: 1 }, table)).toBe(
      'Put K♦ in the empty column 7',
    );
    expect(moveWords({ type: 'move', from: 't4', to: 't5', count: 3 }, table)).toBe(
      'Put 9♣ and the 2 cards on it on Q♥',
    );
    expect(moveWords({ type: 'move', from: 'fC', to: 't6', count: 1 }, table)).toBe(
      'Take A♣ back from its foundation, on 4♦',
    );
    expect(moveWords({ type: 'draw' }, table)).toBe('Draw from the stock');
  });

  it('says what each input did, for a screen reader: the cards moved, a card turned up, a win', () => {
    const before = view();
    const columns = before.tableau;
    // 3♠ onto 4♥ turns up the card under it in column 2.
    const after = view({
      version: 4,
      tableau: [{ hidden: 0, cards: ['4H', '3S'] }, { hidden: 0, cards: ['QC'] }, ...columns.slice(2)],
    });
    expect(plain(doneWords({ type: 'move', from: 't2', to: 't1', count: 1 }, before, after))).toBe(
      'Moved 3♠ onto 4♥; Q♣ turned up in column 2.',
    );
    expect(doneWords({ type: 'move', from: 'waste', to: 'foundation', count: 1 }, before, view())).toBe(
      'Moved 2♣ home.',
    );
    expect(doneWords({ type: 'move', from: 't3', to: 't7', count: 1 }, before, view())).toBe(
      'Moved K♦ to the empty column 7.',
    );
    expect(doneWords({ type: 'move', from: 't4', to: 't5', count: 3 }, before, view())).toBe(
      'Moved 9♣ and the 2 cards on it onto Q♥.',
    );
    expect(doneWords({ type: 'move', from: 'fC', to: 't6', count: 1 }, before, view())).toBe(
      'Moved A♣ from its foundation onto 4♦.',
    );
    expect(
      doneWords({ type: 'move', from: 'waste', to: 'fC', count: 1 }, before, view({ status: 'won' })),
    ).toBe('Moved 2♣ home. You won!');
    expect(doneWords({ type: 'draw' }, before, view({ waste: ['7D', '2C', '5H'] }))).toBe(
      'Drawn: 5♥ on top of the waste.',
    );
    const takes = view({
      legalMoves: [
        { type: 'move', from: 't4', to: 't1', count: 2 },
        { type: 'move', from: 'waste', to: 'fC', count: 1 },
      ],
    });
    expect(pickedUpWords(takes, 't4', 2)).toBe('Picked up 8♦ and the card on it: choose where they go');
    expect(pickedUpWords(takes, 'waste', 1)).toBe('Picked up 2♣: choose where it goes');
    // Cards no pile takes: said at once, not found by walking every pile.
    expect(pickedUpWords(takes, 't4', 1)).toBe('Picked up 7♠: no pile takes it now (Esc lets go)');
    expect(actedWords('autocomplete', before, view({ status: 'won' }))).toBe(
      'Every card went home. You won!',
    );
    expect(actedWords('resign', before, view({ status: 'resigned' }))).toBe('You resigned.');
  });

  it('says what an undo or a redo changed: the cards that went back, or came again', () => {
    const columns = (two: View['tableau'][number], one = ['4H']) => {
      const tableau = [...view().tableau];
      tableau[0] = { hidden: 0, cards: one };
      tableau[1] = two;
      return tableau;
    };
    // 3♠ had gone from column 2 onto 4♥, turning up Q♦.
    const moved = view({ moves: 3, tableau: columns({ hidden: 0, cards: ['QD'] }, ['4H', '3S']) });
    const unmoved = view({ moves: 2, tableau: columns({ hidden: 1, cards: ['3S'] }) });
    expect(plain(actedWords('undo', moved, unmoved))).toBe(
      'Undone: 3♠ back to column 2; Q♦ face down again in column 2. 2 moves in play.',
    );
    expect(plain(actedWords('redo', unmoved, moved))).toBe(
      'Redone: 3♠ onto 4♥; Q♦ turned up in column 2. 3 moves in play.',
    );
    // J♦ onto Q♠ turned up A♥, which went home by itself: one Undo takes back both.
    const homeAlone = view({
      moves: 3,
      tableau: columns({ hidden: 0, cards: [] }, ['QS', 'JD']),
      foundations: { C: ['AC'], D: [], H: ['AH'], S: [] },
    });
    const before = view({ moves: 2, tableau: columns({ hidden: 1, cards: ['JD'] }, ['QS']) });
    expect(plain(actedWords('undo', homeAlone, before))).toBe(
      'Undone: J♦ back to column 2; A♥ off its foundation, face down again in column 2. 2 moves in play.',
    );
    expect(plain(actedWords('redo', before, homeAlone))).toBe(
      'Redone: J♦ onto Q♠; A♥ turned up in column 2 and home. 3 moves in play.',
    );
    // A card that went home from the waste, back on it.
    const home = view({
      moves: 4,
      waste: ['7D'],
      foundations: { C: ['AC', '2C'], D: [], H: [], S: [] },
    });
    expect(plain(actedWords('undo', home, view({ moves: 3 })))).toBe(
      'Undone: 2♣ back on the waste. 3 moves in play.',
    );
    // A draw, and a turn of the waste.
    const drawn = view({ moves: 4, stock: { count: 17 }, waste: ['7D', '2C', '5H', '9S', 'KC'] });
    expect(plain(actedWords('undo', drawn, view()))).toBe(
      'Undone: K♣ and 2 more back in the stock. 3 moves in play.',
    );
    expect(plain(actedWords('redo', view(), drawn))).toBe(
      'Redone: K♣ drawn on top of the waste. 4 moves in play.',
    );
    const turned = view({ moves: 4, stock: { count: 22 }, waste: [] });
    expect(plain(actedWords('undo', turned, view()))).toBe(
      'Undone: the waste as it was before it was turned over, 2♣ on top. 3 moves in play.',
    );
    expect(plain(actedWords('redo', view(), turned))).toBe(
      'Redone: the waste turned over to deal it again. 4 moves in play.',
    );
  });

  it('words the hint: the move, why, and the chances said simply', () => {
    const table = view();
    const hint = (reason: string, move: Hint['move'] = { type: 'move', from: 't2', to: 't1', count: 1 }) =>
      plain(hintWords({ move, reason }, table));
    expect(
      hint(
        'Move 3S from t2 to t1: it turns up a face-down card. Of 24 ways the unseen cards may lie, 10 can be won from here (14 undecided), and this move loses none of them.',
      ),
    ).toBe(
      'Put 3♠ on 4♥: it turns up a face-down card. Your chances from here: about 4 in 10, maybe better (some ways could not be worked out in time).',
    );
    // Nearly every way won, one undecided: better than 9 in 10 is not "10 in 10".
    expect(
      hint(
        'Move 3S from t2 to t1: it turns up a face-down card. Of 21 ways the unseen cards may lie, 20 can be won from here (1 undecided), and this move loses none of them.',
      ),
    ).toBe(
      'Put 3♠ on 4♥: it turns up a face-down card. Your chances from here: about 9 in 10, maybe better (some ways could not be worked out in time).',
    );
    // A guess when no sampled way was won: the table says the chances look slim.
    expect(
      hint(
        'Move 3S from t2 to t1: it turns up a face-down card; none of 48 ways the unseen cards may lie could be won in the time given.',
      ),
    ).toBe(
      'Put 3♠ on 4♥: it turns up a face-down card. Your chances from here look slim: none of the likely ways the face-down cards could lie was won in the time given.',
    );
    expect(
      hint(
        'Move 3S from t2 to t1: it turns up a face-down card; the time ran out before the choices could be weighed.',
      ),
    ).toMatch(/This is a guess: the time ran out/);
    expect(hint('Move 3S from t2 to t1: it is never needed in the tableau again.')).toBe(
      'Put 3♠ on 4♥: no card left in play can need it any more.',
    );
    expect(hint('Draw: it is the only way forward; it deals from the stock.', { type: 'draw' })).toBe(
      'Draw from the stock: it deals new cards from the stock. It is the only way forward.',
    );
    expect(
      hint(
        'Draw: with no limit on passes, seeing the whole stock before playing from it costs nothing, as the next pass deals the same cards the same way.',
        { type: 'draw' },
      ),
    ).toBe(
      'Draw from the stock: with no limit on passes, seeing the whole stock before playing from it costs nothing.',
    );
    const lost = { move: null, reason: 'No move is left: only undo can help.' };
    expect(isLostReason(lost)).toBe(true);
    expect(plain(hintWords(lost, table))).toMatch(/^No line can win this game any more/);
    expect(isLostReason({ move: null, reason: 'The game is won.' })).toBe(false);
    // Whatever else the server writes, its codes are worded.
    expect(plainText('Move QH from t5 to fH')).toBe('Move Q♥ from column 5 to the hearts foundation');
  });

  it('explains why autoplay left a card that could go home', () => {
    const before = view();
    const waiting = view({
      foundations: { C: ['AC'], D: [], H: ['AH'], S: [] },
      waste: ['7D'],
      tableau: [{ hidden: 0, cards: ['2C'] }, ...before.tableau.slice(1)],
      legalMoves: [{ type: 'move', from: 't1', to: 'fC', count: 1 }],
    });
    expect(plain(autoplayWords(waiting, waiting))).toBe(
      '2♣ could go home, but Autoplay leaves it while a card in play may still need it (A♦ is not home yet). Double-click it, or pick it up and put it on its foundation, to send it yourself.',
    );
    const fromWaste = view({
      waste: ['2C'],
      legalMoves: [{ type: 'move', from: 'waste', to: 'fC', count: 1 }],
    });
    expect(autoplayWords(fromWaste, fromWaste)).toMatch(/leaves the waste alone before the last pass/);
    // The cards that went home, by name.
    expect(autoplayWords(before, view({ foundations: { C: ['AC', '2C'], D: ['AD'], H: [], S: [] } }))).toBe(
      '2♣ and A♦ went home.',
    );
    expect(
      autoplayWords(before, view({ foundations: { C: ['AC', '2C', '3C'], D: ['AD'], H: [], S: [] } })),
    ).toBe('2♣, 3♣ and A♦ went home.');
    // And the card that one of them leaving turned up.
    const turnedUp = view({
      foundations: { C: ['AC'], D: [], H: [], S: ['AS'] },
      tableau: before.tableau.map((column, i) => (i === 3 ? { hidden: 2, cards: ['8S'] } : column)),
    });
    expect(autoplayWords(before, turnedUp)).toBe('A♠ went home; 8♠ turned up in column 4.');
  });
});
