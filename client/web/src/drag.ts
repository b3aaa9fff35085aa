/**
 * Drag and drop with pointer events, so that a mouse, a pen and a finger work alike (HTML5 drag
 * and drop has no touch support). A press becomes a drag once the pointer has moved a few pixels;
 * until then it is an ordinary click. While dragging, copies of the picked-up cards follow the
 * pointer and the pile under it is marked; on release the pile under the pointer gets the cards.
 */
import type { PileId } from './piles.js';

/** Pixels the pointer must travel before a press is a drag rather than a click. */
const THRESHOLD = 6;

export interface DragCallbacks {
  /** The drag began: pick the cards up (their legal targets light up). */
  readonly onStart: () => void;
  /** Released over `pile` (null: over no pile, the cards go back). */
  readonly onDrop: (pile: PileId | null) => void;
}

const pileAt = (x: number, y: number): HTMLElement | null =>
  (document.elementFromPoint(x, y)?.closest('[data-pile]') as HTMLElement | null) ?? null;

/**
 * Follows a press on `cards` (the card pressed and those lying on it) until release. Returns at
 * once; the callbacks say what happened. A drag swallows the click that its release would make.
 */
export function followPress(
  event: PointerEvent,
  cards: readonly HTMLElement[],
  callbacks: DragCallbacks,
): void {
  if (event.button !== 0 || cards.length === 0) return;
  const startX = event.clientX;
  const startY = event.clientY;
  const first = cards[0]!.getBoundingClientRect();
  let ghost: HTMLElement | null = null;
  let hover: HTMLElement | null = null;

  const setHover = (pile: HTMLElement | null) => {
    if (pile === hover) return;
    hover?.classList.remove('drop-hover');
    hover = pile;
    hover?.classList.add('drop-hover');
  };

  const begin = () => {
    ghost = document.createElement('div');
    ghost.className = 'ghost';
    ghost.setAttribute('aria-hidden', 'true');
    for (const card of cards) {
      const copy = card.cloneNode(true) as HTMLElement;
      copy.classList.remove('picked', 'aimed', 'hinted');
      ghost.appendChild(copy);
    }
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    document.body.appendChild(ghost);
    for (const card of cards) card.classList.add('dragged');
    callbacks.onStart();
  };

  const move = (e: PointerEvent) => {
    const dx = e.clientX - startX;
    const dy = e.clientY - startY;
    if (!ghost && Math.hypot(dx, dy) < THRESHOLD) return;
    if (!ghost) begin();
    ghost!.style.transform = `translate(${dx}px, ${dy}px)`;
    setHover(pileAt(e.clientX, e.clientY));
  };

  const end = (e: PointerEvent, dropped: boolean) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', cancel);
    if (!ghost) return;
    ghost.remove();
    for (const card of cards) card.classList.remove('dragged');
    setHover(null);
    // The release of a drag is not a click on the pile it started from.
    window.addEventListener('click', swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
    const pile = dropped ? pileAt(e.clientX, e.clientY) : null;
    callbacks.onDrop((pile?.getAttribute('data-pile') as PileId | null) ?? null);
  };
  const up = (e: PointerEvent) => end(e, true);
  const cancel = (e: PointerEvent) => end(e, false);

  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', cancel);
}

function swallow(event: Event) {
  event.stopPropagation();
  event.preventDefault();
}
