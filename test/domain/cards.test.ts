import { describe, expect, it } from 'vitest';
import {
  cardOf,
  formatCard,
  formatDealString,
  isDeckError,
  isRed,
  orderedDeck,
  parseCard,
  parseDealString,
  parseDeck,
  rankOf,
  suitOf,
} from '../../domain/index.js';

describe('cards', () => {
  it('round-trips every code', () => {
    for (const card of orderedDeck()) expect(parseCard(formatCard(card))).toBe(card);
    expect(orderedDeck().map(formatCard).slice(0, 3)).toEqual(['AC', '2C', '3C']);
  });

  it('reads rank then suit, ten as T', () => {
    const card = parseCard('TH')!;
    expect([rankOf(card), suitOf(card), isRed(card)]).toEqual([10, 2, true]);
    expect(isRed(parseCard('KS')!)).toBe(false);
    expect(isRed(parseCard('QD')!)).toBe(true);
    expect(isRed(parseCard('AC')!)).toBe(false);
  });

  it('rejects anything that is not a card code', () => {
    for (const bad of ['', '1H', '10H', 'th', 'TX', 'AHH', 'H', ' AH'])
      expect(parseCard(bad)).toBeUndefined();
  });

  it('parses a deck of 52 distinct codes and says what is wrong otherwise', () => {
    const codes = orderedDeck().map(formatCard);
    expect(parseDeck(codes)).toEqual(orderedDeck());
    expect(isDeckError(parseDeck(codes.slice(1)))).toBe(true);
    expect(parseDeck([...codes.slice(1), 'AC'.replace('A', '2')])).toEqual({ problem: '2C appears twice' });
    expect(parseDeck([...codes.slice(1), 'XX'])).toEqual({ problem: 'deck[51] is not a card code: "XX"' });
  });

  it('reads and writes the 156-digit deal string of ShootMe Klondike-Solver', () => {
    const deck = orderedDeck();
    const digits = formatDealString(deck);
    expect(digits).toHaveLength(156);
    expect(digits.slice(0, 9)).toBe('011021031'); // AC 2C 3C
    expect(digits.slice(-3)).toBe('134'); // KS
    expect(parseDealString(digits)).toEqual(deck);
    expect(formatDealString([cardOf(10, 2)])).toBe('103');
  });

  it('rejects malformed deal strings', () => {
    const digits = formatDealString(orderedDeck());
    expect(isDeckError(parseDealString(digits.slice(3)))).toBe(true);
    expect(isDeckError(parseDealString(`141${digits.slice(3)}`))).toBe(true); // rank 14
    expect(isDeckError(parseDealString(`015${digits.slice(3)}`))).toBe(true); // suit 5
    expect(isDeckError(parseDealString(`012${digits.slice(3)}`))).toBe(true); // AD twice
  });
});
