/**
 * The table's measures, from the room it has: the card size that lets the longest column Klondike
 * can hold (6 face-down cards under 13 face-up ones) fit with every card's rank readable, and each
 * column's fan, squeezed when a column is long. Pure: the Table measures its box and asks here.
 */

/** A card is 1.4 times as tall as it is wide (a poker card is 88 x 63 mm). */
export const CARD_RATIO = 1.4;
/** The longest column: 6 face-down cards and a King-to-Ace run of 13 on them. */
const LONGEST = 19;
/** Cards never grow past this width: at that size a wider window only gets a wider margin. */
const MAX_CARD = 180;
const MIN_CARD = 28;

export interface TableSize {
  /** Card width and height, px. */
  readonly card: number;
  readonly cardHeight: number;
  /** Between piles, px; and between the top row and the columns. */
  readonly gap: number;
  readonly rowGap: number;
  /** Font size of the rank and suit in a card's corner, px. */
  readonly label: number;
  /** The least offset between two face-up cards in a column that leaves the lower card's rank in view. */
  readonly minStep: number;
  /** The height the columns have, below the top row. */
  readonly columns: number;
}

const clamp = (low: number, x: number, high: number) => Math.min(high, Math.max(low, x));

export const gapFor = (width: number): number => Math.round(clamp(3, width * 0.011, 14));
export const labelFor = (card: number): number => clamp(11, card * 0.17, 20);
/** The corner sits 3% of a card's width from its top; its text is one line of `label`. */
export const minStepFor = (card: number): number => Math.ceil(card * 0.03 + labelFor(card) + 3);
export const rowGapFor = (gap: number): number => Math.round(gap * 1.5);

/** The height a table with cards of this width needs for its longest column. */
const needed = (card: number, gap: number) =>
  2 * card * CARD_RATIO + rowGapFor(gap) + (LONGEST - 1) * minStepFor(card);

/** The biggest cards for a box of `width` x `height` px in which the longest column fits. */
export function tableSize(width: number, height: number): TableSize {
  const gap = gapFor(width);
  let high = clamp(MIN_CARD, (width - 6 * gap) / 7, MAX_CARD);
  let low = MIN_CARD;
  if (needed(high, gap) <= height) low = high;
  else {
    for (let i = 0; i < 24; i++) {
      const mid = (low + high) / 2;
      if (needed(mid, gap) <= height) low = mid;
      else high = mid;
    }
  }
  const card = Math.floor(low);
  const cardHeight = Math.round(card * CARD_RATIO);
  return {
    card,
    cardHeight,
    gap,
    rowGap: rowGapFor(gap),
    label: Math.round(labelFor(card) * 10) / 10,
    minStep: minStepFor(card),
    columns: Math.max(cardHeight, height - cardHeight - rowGapFor(gap)),
  };
}

export interface Fan {
  /** Offset from a face-down card (drawn as a back) to the card on it, px. */
  readonly down: number;
  /** Offset from a face-up card (or a face-down one shown face up once the game is over) to the card on it. */
  readonly up: number;
}

/**
 * A column's fan: roomy while it fits, squeezed when it is long, face-down backs first (they need
 * show nothing but an edge) and then the face-up cards, never below `minStep`.
 */
export function fanOf(backs: number, faces: number, size: TableSize): Fan {
  const h = size.cardHeight;
  const roomyUp = Math.round(h * 0.3);
  const roomyDown = Math.round(h * 0.14);
  const leastDown = Math.max(4, Math.round(h * 0.05));
  const cards = backs + faces;
  if (cards <= 1) return { down: roomyDown, up: roomyUp };
  // The steps are those of every card but the top one: backs lie under the face-up cards.
  const downSteps = faces > 0 ? backs : backs - 1;
  const upSteps = Math.max(0, faces - 1);
  const room = size.columns - h;
  const length = (down: number, up: number) => downSteps * down + upSteps * up;
  if (length(roomyDown, roomyUp) <= room) return { down: roomyDown, up: roomyUp };
  const down =
    downSteps === 0 ? roomyDown : clamp(leastDown, (room - upSteps * roomyUp) / downSteps, roomyDown);
  if (length(down, roomyUp) <= room) return { down: Math.floor(down), up: roomyUp };
  const up = upSteps === 0 ? roomyUp : clamp(size.minStep, (room - downSteps * down) / upSteps, roomyUp);
  return { down: Math.floor(down), up: Math.floor(up) };
}
