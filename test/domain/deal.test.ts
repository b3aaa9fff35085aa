import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  deal,
  deckFromSeed,
  fold,
  formatCard,
  HOUSE_RULES,
  isSeed,
  layOut,
  mulberry32,
  orderedDeck,
  toView,
} from '../../domain/index.js';

const codes = (seed: number) => deckFromSeed(seed).map(formatCard).join(' ');

describe('numbered deals', () => {
  it('mulberry32 produces its reference sequence', () => {
    const next = mulberry32(0);
    expect([next(), next(), next()]).toEqual([1144304738, 1416247, 958946056]);
    const other = mulberry32(4294967295);
    expect(other()).toBe(3850105811);
  });

  it('pins seeds to their exact decks (golden)', () => {
    expect(codes(0)).toBe(
      '3D QH KD TS 9S 2H JC TH KS 9H QC 5C 9D 8D JS 8H KH 8S 9C 6H JD 7D 5H TC 6S 2S 7H 4D 7S 3S 8C 5S 2C 3C 4H 4S QD QS AC 4C AH 2D 6C AD 5D AS TD JH KC 7C 3H 6D',
    );
    expect(codes(1)).toBe(
      '9C AC TC 4C 8H TD 2C 5S KS 5C QD 6H AD 6C 9H JD TH 6S KH JC 7D AH 8D 3H 9S 2D 6D KD QS 5D 8S QC TS 8C 3S 5H 9D 3C 4H 4S 7H 7C JS 4D 2S KC AS 2H JH QH 7S 3D',
    );
    expect(codes(42)).toBe(
      '4D JC KH QC 4C 7S 7H AC 6S 9S TD JD 6C TC 8H 2H 3C QH 9H 5S 7C 8D 3D AS QD 2C 2S 3S KC TH 8C 3H JS 7D 4H 6D KD KS 9C AD AH 9D 5H 2D 5D JH QS 4S 8S 5C 6H TS',
    );
    expect(codes(4294967295)).toBe(
      '5D AS 2D KC QH QS JD 6C 3H JS 8H 2H 5H JC 2C KS JH 9C 8C 2S AC 3D 9D TH TD 3C 5C 7S 8D 7C AH KH 6D 4H 9H AD 4C QC 7H 4D QD 6S KD 5S 3S TC 4S 6H 8S TS 9S 7D',
    );
  });

  it("the README's shuffle, followed step by step, gives every deal, its golden decks among them", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Numbered deals: the shuffle, exactly'));
    // The steps as the README writes them: the start deck, Mulberry32, the uniform index by
    // rejection, Fisher-Yates from the top.
    const readmeDeal = (seed: number): string => {
      const deck = Array.from(
        { length: 52 },
        (_, n) => `${'A23456789TJQK'[n % 13]}${'CDHS'[Math.floor(n / 13)]}`,
      );
      let s = seed >>> 0;
      const next = () => {
        s = (s + 0x6d2b79f5) >>> 0;
        let z = s;
        z = Math.imul(z ^ (z >>> 15), z | 1) >>> 0;
        z = (z ^ (z + Math.imul(z ^ (z >>> 7), z | 61))) >>> 0;
        return (z ^ (z >>> 14)) >>> 0;
      };
      const uniform = (b: number) => {
        const limit = 2 ** 32 - (2 ** 32 % b);
        for (;;) {
          const r = next();
          if (r < limit) return r % b;
        }
      };
      for (let i = 51; i >= 1; i--) {
        const j = uniform(i + 1);
        [deck[i], deck[j]] = [deck[j]!, deck[i]!];
      }
      return deck.join(' ');
    };
    const golden = [...section.matchAll(/^\| (\d+) \| `([2-9TJQKA][CDHS](?: [2-9TJQKA][CDHS]){51})` \|$/gm)];
    expect(golden.map(([, seed]) => Number(seed))).toEqual([0, 1, 42, 4294967295]);
    for (const [, seed, deck] of golden) {
      expect(codes(Number(seed))).toBe(deck);
      expect(readmeDeal(Number(seed))).toBe(deck);
    }
    for (const seed of [2, 7, 1000, 123456789, 3000000000]) expect(readmeDeal(seed)).toBe(codes(seed));
  });

  it('gives every seed a full deck, and different seeds different decks', () => {
    for (const seed of [2, 3, 1000, 123456789])
      expect([...deckFromSeed(seed)].sort((a, b) => a - b)).toEqual(orderedDeck());
    expect(codes(2)).not.toBe(codes(3));
  });

  it('accepts only 32-bit unsigned seeds', () => {
    expect([0, 1, 4294967295].every(isSeed)).toBe(true);
    expect([-1, 4294967296, 1.5, Number.NaN].some(isSeed)).toBe(false);
  });
});

describe('the layout follows physical dealing order', () => {
  const deck = orderedDeck(); // AC 2C ... KS: card n is number n
  const board = layOut(deck);

  it('deals row by row: deck[0] up on t1, deck[1..6] down on t2..t7, deck[7] up on t2, ...', () => {
    expect(board.tableau[0]).toEqual({ hidden: [], up: [0] });
    expect(board.tableau[1]).toEqual({ hidden: [1], up: [7] });
    expect(board.tableau[2]).toEqual({ hidden: [2, 8], up: [13] });
    expect(board.tableau[6]).toEqual({ hidden: [6, 12, 17, 21, 24, 26], up: [27] });
    board.tableau.forEach((column, i) => {
      expect(column.hidden).toHaveLength(i);
      expect(column.up).toHaveLength(1);
    });
  });

  it('leaves deck[28..51] as the stock with deck[28] on top', () => {
    expect(board.stock).toHaveLength(24);
    expect(board.stock[board.stock.length - 1]).toBe(28);
    expect(board.stock[0]).toBe(51);
    expect(board.waste).toEqual([]);
    expect(board.pass).toBe(1);
  });

  it('a dealt game is at version 0 with the opening scores', () => {
    const state = fold([deal(deck, null, HOUSE_RULES)]);
    const view = toView(state, 'g');
    expect(view.version).toBe(0);
    expect(view.score).toEqual({ vegas: -52, standard: 0 });
    expect(view.tableau.map((c) => c.cards[0])).toEqual(['AC', '8C', 'AD', '6D', 'TD', 'KD', '2H']);
  });
});
