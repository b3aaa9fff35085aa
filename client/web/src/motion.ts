/**
 * Cards that move: after each redraw of a table, every face-up card that changed place slides
 * from where it was (a FLIP: drawn at its new place, then moved back and let go), a card newly face
 * up turns over, and a card just drawn comes from the stock. Nothing here waits for an animation:
 * the next redraw finishes the running ones at once, so motion never holds up a move. With reduced
 * motion (the system's or the page's setting) nothing moves.
 */
import { reducedMotion } from './settings.js';

/** The longest slide, ms. */
export const SLIDE_MS = 250;
const TURN_MS = 200;
const EASE = 'cubic-bezier(0.2, 0.7, 0.3, 1)';

export interface Spot {
  readonly x: number;
  readonly y: number;
}

/** Where an element lies in `root`, ignoring transforms (an animation in progress does not count). */
function spotOf(element: HTMLElement, root: HTMLElement): Spot {
  let x = 0;
  let y = 0;
  let at: HTMLElement | null = element;
  while (at && at !== root) {
    x += at.offsetLeft;
    y += at.offsetTop;
    at = at.offsetParent as HTMLElement | null;
  }
  return { x, y };
}

/** The places of the face-up cards of a table, by code, and of its stock. */
export interface Places {
  readonly cards: ReadonlyMap<string, Spot>;
  readonly stock: Spot | undefined;
}

export function placesOf(root: HTMLElement): Places {
  const cards = new Map<string, Spot>();
  for (const card of root.querySelectorAll<HTMLElement>('[data-card]')) {
    const code = card.dataset.card!;
    if (code !== 'down') cards.set(code, spotOf(card, root));
  }
  const stock = root.querySelector<HTMLElement>('[data-pile="stock"]');
  return { cards, stock: stock ? spotOf(stock, root) : undefined };
}

/** Ends every animation of the table at once. */
export function finishMotion(root: HTMLElement): void {
  for (const animation of root.getAnimations({ subtree: true })) animation.finish();
}

/**
 * Moves the cards of `root` from their places `before` to where they are now; returns the places
 * now, for the next time. Cards of a pile that was not on the table before (a first drawing) stay.
 */
export function moveCards(root: HTMLElement, before: Places | null): Places {
  finishMotion(root);
  const now = placesOf(root);
  if (!before || reducedMotion()) return now;
  for (const card of root.querySelectorAll<HTMLElement>('[data-card]')) {
    const code = card.dataset.card!;
    if (code === 'down') continue;
    const to = now.cards.get(code)!;
    const from = before.cards.get(code);
    if (from) {
      const dx = from.x - to.x;
      const dy = from.y - to.y;
      if (Math.abs(dx) + Math.abs(dy) < 1) continue;
      const ms = Math.min(SLIDE_MS, 120 + Math.hypot(dx, dy) / 6);
      card.animate(
        [
          { transform: `translate(${dx}px, ${dy}px)`, zIndex: 20 },
          { transform: 'none', zIndex: 20 },
        ],
        { duration: ms, easing: EASE },
      );
    } else if (card.closest('[data-pile="waste"]') && before.stock) {
      // Drawn: from the stock, turning over on the way.
      const dx = before.stock.x - to.x;
      const dy = before.stock.y - to.y;
      card.animate(
        [
          { transform: `translate(${dx}px, ${dy}px) scaleX(0.05)`, zIndex: 20 },
          { transform: 'none', zIndex: 20 },
        ],
        { duration: SLIDE_MS, easing: EASE },
      );
    } else {
      // Turned up where it lies (a column's face-down card, uncovered).
      card.animate([{ transform: 'scaleX(0.05)' }, { transform: 'none' }], {
        duration: TURN_MS,
        easing: EASE,
      });
    }
  }
  return now;
}

/**
 * The win: the cards leap off their foundations one after another and fall back, as in the games
 * players know. Nothing under reduced motion (the page says it in words anyway).
 */
export function celebrate(root: HTMLElement): void {
  if (reducedMotion()) return;
  const cards = [...root.querySelectorAll<HTMLElement>('.foundation [data-card]')].reverse();
  const width = root.clientWidth;
  const height = root.clientHeight;
  cards.forEach((card, i) => {
    const spot = spotOf(card, root);
    // Spread over the table, from right to left and back, by the card's place in the sequence.
    const x = ((i * 97) % Math.max(1, width)) - spot.x;
    const y = height * (0.45 + (0.4 * ((i * 37) % 11)) / 11) - spot.y;
    card.animate(
      [
        { transform: 'none', zIndex: 30 },
        {
          transform: `translate(${x / 2}px, ${y * 0.2 - 80}px) rotate(${(i % 7) * 30 - 90}deg)`,
          zIndex: 30,
          offset: 0.35,
        },
        { transform: `translate(${x}px, ${y}px) rotate(${(i % 5) * 45}deg)`, zIndex: 30, offset: 0.7 },
        { transform: 'none', zIndex: 30 },
      ],
      { duration: 1800, delay: i * 45, easing: 'ease-in-out' },
    );
  });
}
