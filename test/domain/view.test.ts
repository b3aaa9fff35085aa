import { describe, expect, it } from 'vitest';
import {
  checkHistory,
  deal,
  deckFromSeed,
  fold,
  formatCard,
  frames,
  HOUSE_RULES,
  parseDeck,
  publicEvent,
  stateAt,
  toView,
} from '../../domain/index.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { act } from './helpers.js';

const dealt = deal(deckFromSeed(3), 3, HOUSE_RULES);

describe('the player view', () => {
  it('has the documented shape and hides the deal while in play', () => {
    const view = toView(fold([dealt]), 'game-1');
    expect(Object.keys(view).sort()).toEqual(
      [
        'id',
        'version',
        'status',
        'rules',
        'stock',
        'waste',
        'foundations',
        'tableau',
        'pass',
        'recyclesLeft',
        'moves',
        'score',
        'canUndo',
        'canRedo',
        'legalMoves',
      ].sort(),
    );
    expect(view).toMatchObject({
      id: 'game-1',
      status: 'playing',
      stock: { count: 24 },
      pass: 1,
      recyclesLeft: 2,
    });
    expect(view.tableau.map((column) => column.hidden)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(view.legalMoves).toContainEqual({ type: 'draw' });
  });

  it('a resigned game reveals the deck, the seed, the face-down cards and the stock order', () => {
    const resigned = act(fold([dealt]), { type: 'resign' });
    const view = toView(resigned, 'g');
    expect(view.deck).toEqual(deckFromSeed(3).map(formatCard));
    expect(view.seed).toBe(3);
    expect(view.tableau[6]!.hiddenCards).toHaveLength(6);
    // Bottom to top, like every pile: the first card a draw takes, deck[28], on top.
    expect(view.stock.cards).toEqual(deckFromSeed(3).slice(28).reverse().map(formatCard));
  });

  it('a deal given as cards (or chosen by the service) reveals seed: null', () => {
    const resigned = act(fold([deal(deckFromSeed(3), null, HOUSE_RULES)]), { type: 'resign' });
    expect(toView(resigned, 'g').seed).toBeNull();
  });

  it('events show the deal only once the game is over', () => {
    expect(publicEvent(dealt, false)).toEqual({ type: 'dealt', data: { rules: HOUSE_RULES } });
    expect(publicEvent(dealt, true)).toBe(dealt);
  });
});

describe('replay', () => {
  const line = fixtures.lines[0]!;
  const deck = parseDeck(line.deck) as number[];
  const history = checkHistory(deal(deck, null, HOUSE_RULES), line.moves as never);

  it('a known winning line ends won, with every card on the foundations', () => {
    expect(history.ok).toBe(true);
    expect(history.state.status).toBe('won');
    expect(history.state.version).toBe(line.moves.length);
    expect(toView(history.state, 'g').score.vegas).toBe(-52 + 52 * 5 - 5 * 0);
  });

  it('every fixture line wins', () => {
    for (const { deck: codes, moves } of fixtures.lines) {
      const result = checkHistory(deal(parseDeck(codes) as number[], null, HOUSE_RULES), moves as never);
      expect(result.state.status).toBe('won');
    }
  });

  it('names the index and rule of the first illegal move', () => {
    const moves = [...line.moves.slice(0, 5), { type: 'recycle' }, ...line.moves.slice(5)];
    const result = checkHistory(deal(deck, null, HOUSE_RULES), moves as never);
    expect(result).toMatchObject({ ok: false, index: 5, violation: { rule: 'recycle-needs-empty-stock' } });
    expect(result.state.version).toBe(5);
  });

  it('frames give the state after each event in a range, equal to the state at that version', () => {
    const events = history.ok ? history.events : [];
    const range = frames(events, 10, 20);
    expect(range.map((frame) => frame.version)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    for (const frame of range) expect(frame.state).toEqual(stateAt(events, frame.version));
    expect(() => stateAt(events, events.length)).toThrow(RangeError);
  });
});
