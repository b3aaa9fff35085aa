/** Card codes as the API writes them (`TH` = ten of hearts), in words and symbols for the page. */
import type { Suit } from '../../types.js';

export const RANK_NAMES: Record<string, string> = {
  A: 'ace',
  '2': 'two',
  '3': 'three',
  '4': 'four',
  '5': 'five',
  '6': 'six',
  '7': 'seven',
  '8': 'eight',
  '9': 'nine',
  T: 'ten',
  J: 'jack',
  Q: 'queen',
  K: 'king',
};
export const SUIT_NAMES: Record<Suit, string> = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
export const SUIT_SYMBOLS: Record<Suit, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };

export const suitOf = (card: string): Suit => card[1] as Suit;
export const isRed = (card: string): boolean => card[1] === 'D' || card[1] === 'H';
/** The index printed in a card's corner: `10`, not `T`. */
export const rankLabel = (card: string): string => (card[0] === 'T' ? '10' : card[0]!);
/** For screen readers and messages: "ten of hearts". */
export const cardName = (card: string): string =>
  `${RANK_NAMES[card[0]!] ?? card[0]} of ${SUIT_NAMES[suitOf(card)] ?? card[1]}`;
/** Short and visual, for messages: "10♥". */
export const cardShort = (card: string): string =>
  `${rankLabel(card)}${SUIT_SYMBOLS[suitOf(card)] ?? card[1]}`;
