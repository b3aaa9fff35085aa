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

/** The face-up cards of a table by code (their elements and places), and where its stock is. */
export interface Places {
  readonly cards: ReadonlyMap<string, { readonly element: HTMLElement; readonly spot: Spot }>;
  readonly stock: Spot | undefined;
}

export function placesOf(root: HTMLElement): Places {
  const cards = new Map<string, { element: HTMLElement; spot: Spot }>();
  for (const element of root.querySelectorAll<HTMLElement>('[data-card]')) {
    const code = element.dataset.card!;
    if (code !== 'down') cards.set(code, { element, spot: spotOf(element, root) });
  }
  const stock = root.querySelector<HTMLElement>('[data-pile="stock"]');
  return { cards, stock: stock ? spotOf(stock, root) : undefined };
}

/**
 * The animations started here and still running. Kept by hand: asking the document for them
 * (getAnimations) costs a millisecond or two a move.
 */
const running = new Set<Animation>();

function animate(element: HTMLElement, keyframes: Keyframe[], options: KeyframeAnimationOptions): void {
  const animation = element.animate(keyframes, options);
  running.add(animation);
  const done = () => running.delete(animation);
  animation.onfinish = done;
  animation.oncancel = done;
}

/** Ends every animation of the table at once. */
export function finishMotion(): void {
  for (const animation of running) animation.finish();
  running.clear();
}

/**
 * What a press at (x, y) is on, motion ended first: a card still sliding or turning over is not
 * where it lands (a turning card is a sliver of itself), and the press is meant for where it lands.
 */
export function pressedAt(event: MouseEvent): EventTarget | null {
  if (running.size === 0) return event.target;
  finishMotion();
  return document.elementFromPoint(event.clientX, event.clientY);
}

/**
 * Moves the cards of `root` from their places `before` to where they are now; returns the places
 * now, for the next time. Cards of a pile that was not on the table before (a first drawing) stay.
 */
export function moveCards(root: HTMLElement, before: Places | null): Places {
  finishMotion();
  const now = placesOf(root);
  if (!before || reducedMotion()) return now;
  for (const [code, { element: card, spot: to }] of now.cards) {
    const from = before.cards.get(code)?.spot;
    if (from) {
      const dx = from.x - to.x;
      const dy = from.y - to.y;
      if (Math.abs(dx) + Math.abs(dy) < 1) continue;
      const ms = Math.min(SLIDE_MS, 120 + Math.hypot(dx, dy) / 6);
      animate(
        card,
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
      animate(
        card,
        [
          { transform: `translate(${dx}px, ${dy}px) scaleX(0.05)`, zIndex: 20 },
          { transform: 'none', zIndex: 20 },
        ],
        { duration: SLIDE_MS, easing: EASE },
      );
    } else {
      // Turned up where it lies (a column's face-down card, uncovered).
      animate(card, [{ transform: 'scaleX(0.05)' }, { transform: 'none' }], {
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
    animate(
      card,
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
