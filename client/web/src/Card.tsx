import { isRed, rankLabel, SUIT_SYMBOLS, suitOf } from './cards.js';

interface CardProps {
  /** The card's code, or null for a card seen from the back. */
  readonly card: string | null;
  /** Position in its pile, bottom first: how a click says which cards it picks up. */
  readonly index?: number;
  /** Extra classes: picked, aimed, hinted, revealed (face down in the game, shown once it ended). */
  readonly classes?: string;
}

/**
 * One card, drawn in CSS: the index in the corner (what stays visible when cards overlap) and a
 * large suit in the middle. Its words are on the pile's label; the card itself is decoration:
 * its index and suit are CSS-generated from data-label, so that the pile's accessible name (the
 * cards in words) is all that assistive technology meets. Spans shown as blocks, since a pile in
 * play is a button, which holds phrasing content only.
 */
export function Card({ card, index, classes = '' }: CardProps) {
  if (card === null)
    return <span class={`card down ${classes}`} data-card="down" data-index={index} aria-hidden="true" />;
  const suit = SUIT_SYMBOLS[suitOf(card)];
  return (
    <span
      class={`card ${isRed(card) ? 'red' : 'black'} ${classes}`}
      data-card={card}
      data-index={index}
      aria-hidden="true"
    >
      <span class="corner" data-label={`${rankLabel(card)}${suit}`} />
      <span class="pip" data-label={suit} />
    </span>
  );
}
