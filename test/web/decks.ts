/**
 * Deals made for the web client's tests, in the dealing order of docs/rules.md: card `deck[i]` lands
 * where the deal puts the i-th card (the tops of columns 1..7 are deck[0, 7, 13, 18, 22, 25, 27],
 * the stock is deck[28..51], deck[28] drawn first). Cards not placed fill the other places in order.
 */
const SUITS = ['C', 'D', 'H', 'S'];
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
export const ALL = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

/** The face-up card of each column at the deal. */
export const TOPS = [0, 7, 13, 18, 22, 25, 27];

function deckWith(placed: Readonly<Record<number, string>>): string[] {
  const used = new Set(Object.values(placed));
  const rest = ALL.filter((card) => !used.has(card));
  return Array.from({ length: 52 }, (_, i) => placed[i] ?? rest.shift()!);
}

/**
 * Draw 1: column 7 shows K♠ over its 6 face-down cards, and the stock deals Q♥ J♣ 10♦ … A♠ first,
 * so that 12 draws, each followed by waste → column 7, build a column of 13 face-up cards over 6
 * face-down ones: the longest column Klondike can hold.
 */
export const LONGEST_COLUMN = {
  rules: { draw: 1 as const, passes: null, foundationToTableau: true },
  deck: deckWith({
    27: 'KS',
    ...Object.fromEntries(
      ['QH', 'JC', 'TD', '9S', '8H', '7C', '6D', '5S', '4H', '3C', '2D', 'AS'].map((card, i) => [
        28 + i,
        card,
      ]),
    ),
  }),
  moves: Array.from({ length: 12 }, () => [
    { type: 'draw' },
    { type: 'move', from: 'waste', to: 't7' },
  ]).flat(),
};

/**
 * Draw 3, one pass: the tops are all black (no column takes another's card), no ace is face up,
 * and the cards a draw shows (every third card of the stock) are black sixes to nines, which go
 * nowhere. Once the stock is dealt, no move is left: the hint says no line can win any more.
 */
export const DEAD_END = {
  rules: { draw: 3 as const, passes: 1, foundationToTableau: true },
  deck: deckWith({
    ...Object.fromEntries(['KS', 'KC', 'QS', 'QC', 'JS', 'JC', 'TS'].map((card, i) => [TOPS[i]!, card])),
    ...Object.fromEntries(
      ['9S', '9C', '8S', '8C', '7S', '7C', '6S', '6C'].map((card, i) => [30 + 3 * i, card]),
    ),
  }),
};

/**
 * Q♥, on top of column 2, goes on K♠ (column 1) and turns up 5♣, the one card face down under it.
 * No ace shows, in the columns or on the waste after any draw (draw 3): no card goes home by itself.
 */
export const REVEAL = {
  rules: { draw: 3 as const, passes: 3, foundationToTableau: true },
  deck: deckWith({ 0: 'KS', 1: '5C', 7: 'QH' }),
  turned: '5C',
};

/**
 * Draw 3: column 1 shows 9♥, and the first two draws put 8♣ and then 8♠ on top of the waste, each
 * of which goes on 9♥. No ace shows and no other column takes a card: nothing goes home by itself.
 */
export const TWO_EIGHTS = {
  rules: { draw: 3 as const, passes: 3, foundationToTableau: true },
  deck: deckWith({
    ...Object.fromEntries(['9H', 'KS', 'KC', 'QS', 'QC', 'JS', 'JC'].map((card, i) => [TOPS[i]!, card])),
    ...Object.fromEntries(['5D', '6D', '8C', '5H', '6H', '8S'].map((card, i) => [28 + i, card])),
  }),
};
