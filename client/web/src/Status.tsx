import { useEffect, useState } from 'preact/hooks';
import type { View } from '../../types.js';
import { api } from './api.js';
import { clockWords } from './words.js';

/** The game's time, from the log: when its first action was made and, once it is over, its last. */
export interface GameTime {
  /** The first action's time (ms, the server's clock); undefined before there is one. */
  readonly start: number | undefined;
  /** The last action's time, for a finished game; undefined while it is in play. */
  readonly end: number | undefined;
  /** How far this browser's clock runs ahead of the server's, ms. */
  readonly skew: number;
}

/** A Vegas score as money: "$15", "−$52". */
export const dollars = (amount: number) => (amount < 0 ? `−$${-amount}` : `$${amount}`);

/** "3:07", ticking while the game is in play. */
function Clock({ time }: { readonly time: GameTime }) {
  const [now, setNow] = useState(() => Date.now());
  const running = time.start !== undefined && time.end === undefined;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const elapsed = time.start === undefined ? 0 : (time.end ?? now - time.skew) - time.start;
  return <>{clockWords(elapsed)}</>;
}

interface StatusProps {
  readonly view: View;
  readonly score: 'standard' | 'vegas';
  /** The time to show: a clock of the game, or a fixed time (a replay's frame). */
  readonly time?: GameTime;
  /**
   * Whether the bar carries the view's version (`data-version`, default true). A replay's bar does
   * not: its frame's version has an element of its own, the one element with `data-version` there.
   */
  readonly versioned?: boolean;
}

/**
 * The bar: the time since the game's first action, the moves, the score the player chose, and the
 * pass through the deck. Its version is on it for tests (`data-version`), not in words.
 */
export function Status({ view, score, time, versioned = true }: StatusProps) {
  const passes = view.rules.passes;
  const item = (name: string, value: preact.ComponentChildren, extra: Record<string, unknown> = {}) => (
    <div {...extra}>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <dl class="status">
      {time && item('Time', <Clock time={time} />, { class: 'time' })}
      {item('Moves', view.moves, versioned ? { 'data-version': view.version } : {})}
      {item(
        score === 'vegas' ? 'Vegas' : 'Score',
        score === 'vegas' ? dollars(view.score.vegas) : view.score.standard,
      )}
      {item('Pass', passes === null ? `${view.pass}` : `${view.pass} of ${passes}`, {
        title: passes === null ? 'Passes through the deck: no limit' : 'Passes through the deck',
      })}
      {item('Draw', view.rules.draw)}
    </dl>
  );
}

/**
 * A game's time from its log: the first action's time once there is one, and the last one's once
 * the game is over (one event each, asked once). A failure leaves the clock at 0:00: it is no
 * reason to stop a game.
 */
export function useGameTime(id: string, token: string | undefined, view: View | null): GameTime {
  const [start, setStart] = useState<{ at: number; skew: number } | undefined>(undefined);
  const [end, setEnd] = useState<number | undefined>(undefined);
  const begun = view !== null && view.version >= 1;
  const over = view !== null && view.status !== 'playing' && begun;
  useEffect(() => {
    if (begun && !start) api.eventTime(id, token, 1).then(setStart, () => {});
  }, [id, begun]);
  useEffect(() => {
    if (over && view)
      api.eventTime(id, token, view.version).then(
        ({ at }) => setEnd(at),
        () => {},
      );
  }, [id, over]);
  return { start: start?.at, end: over ? end : undefined, skew: start?.skew ?? 0 };
}
