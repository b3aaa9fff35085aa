/**
 * Cards as small integers: `suit * 13 + (rank - 1)`, suits in the order C, D, H, S.
 * Numbers keep the hot paths (legal-move listing, folding) free of string work; codes such as `TH`
 * are only for the edges (deals, views, errors).
 */
export type Card = number;

export const SUITS = ['C', 'D', 'H', 'S'] as const;
export type Suit = (typeof SUITS)[number];
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export type CardCode = string;

export const DECK_SIZE = 52;
export const KING = 13;
export const ACE = 1;

/** 1 (Ace) .. 13 (King). */
export const rankOf = (card: Card): number => (card % 13) + 1;
/** 0..3 in the order C, D, H, S. */
export const suitOf = (card: Card): number => Math.floor(card / 13);
/** Diamonds and hearts are red. */
export const isRed = (card: Card): boolean => {
  const suit = suitOf(card);
  return suit === 1 || suit === 2;
};

export const cardOf = (rank: number, suit: number): Card => suit * 13 + (rank - 1);

/** The other card of the same rank and colour: 3C and 3S, 3D and 3H. */
export const twinOf = (card: Card): Card => card + (3 - 2 * suitOf(card)) * 13;

/** Whether `card` may lie on `top` in the tableau: one rank lower and of the other colour. */
export const fitsOn = (card: Card, top: Card): boolean =>
  rankOf(top) === rankOf(card) + 1 && isRed(top) !== isRed(card);

/**
 * The cards `card` (not a King) may lie on in the tableau (see `fitsOn`), `k` = 0 or 1: one rank
 * higher, in the first or the second suit of the other colour.
 */
export const holderOf = (card: Card, k: number): Card => {
  const first = isRed(card) ? 0 : 1;
  return cardOf(rankOf(card) + 1, k === 0 ? first : 3 - first);
};

/** Whether `card` goes next on a foundation of its suit holding `height` cards (Ace first). */
export const goesOn = (card: Card, height: number): boolean => rankOf(card) === height + 1;

/** Whether foundations of these heights (by suit) hold the whole deck: the game is won. */
export const allHome = (heights: ArrayLike<number>): boolean => {
  for (let s = 0; s < SUITS.length; s++) if (heights[s] !== KING) return false;
  return true;
};

export const formatCard = (card: Card): CardCode => `${RANKS[rankOf(card) - 1]}${SUITS[suitOf(card)]}`;

/** Parses `TH`, `AS`, ... (case-sensitive, as docs/api.md writes them); `undefined` for anything else. */
export function parseCard(code: string): Card | undefined {
  if (code.length !== 2) return undefined;
  const rank = RANKS.indexOf(code[0] as (typeof RANKS)[number]);
  const suit = SUITS.indexOf(code[1] as Suit);
  if (rank < 0 || suit < 0) return undefined;
  return cardOf(rank + 1, suit);
}

/** The 52 cards in a fixed order: C A..K, D A..K, H A..K, S A..K (card n is the number n). */
export const orderedDeck = (): Card[] => Array.from({ length: DECK_SIZE }, (_, i) => i);

export type DeckError = { readonly problem: string };

/** A deck is valid when it holds each of the 52 cards exactly once. */
export function checkDeck(cards: readonly Card[]): DeckError | undefined {
  if (cards.length !== DECK_SIZE) return { problem: `a deck has 52 cards, this one has ${cards.length}` };
  const seen = new Set<Card>();
  for (const card of cards) {
    if (seen.has(card)) return { problem: `${formatCard(card)} appears twice` };
    seen.add(card);
  }
  return undefined;
}

/** Parses an array of card codes into a deck, or says what is wrong with it. */
export function parseDeck(codes: readonly string[]): Card[] | DeckError {
  const cards: Card[] = [];
  for (const [i, code] of codes.entries()) {
    const card = parseCard(code);
    if (card === undefined) return { problem: `deck[${i}] is not a card code: ${JSON.stringify(code)}` };
    cards.push(card);
  }
  return checkDeck(cards) ?? cards;
}

/**
 * ShootMe's Klondike-Solver deal string: 3 digits a card, rank `01`..`13` then suit digit
 * 1=C 2=D 3=H 4=S, cards in the same dealing order as the array form.
 */
export function parseDealString(digits: string): Card[] | DeckError {
  if (!/^\d{156}$/.test(digits)) return { problem: 'a deal string is exactly 156 digits (3 per card)' };
  const cards: Card[] = [];
  for (let i = 0; i < DECK_SIZE; i++) {
    const rank = Number(digits.slice(i * 3, i * 3 + 2));
    const suit = Number(digits[i * 3 + 2]) - 1;
    if (rank < 1 || rank > 13 || suit < 0 || suit > 3) {
      return { problem: `card ${i} (${digits.slice(i * 3, i * 3 + 3)}) is not rank 01..13 then suit 1..4` };
    }
    cards.push(cardOf(rank, suit));
  }
  return checkDeck(cards) ?? cards;
}

export const formatDealString = (cards: readonly Card[]): string =>
  cards.map((card) => `${String(rankOf(card)).padStart(2, '0')}${suitOf(card) + 1}`).join('');

export const isDeckError = (value: unknown): value is DeckError =>
  typeof value === 'object' && value !== null && 'problem' in value;
