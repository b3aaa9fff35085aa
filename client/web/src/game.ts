/**
 * The state of one game on the page and every way to change it. Each change is one request; the
 * table is redrawn from the view the API answers, never from a guess of our own. While a request
 * is out, other actions wait their turn (a double click sends one move, not two).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Move, PlayedMove, View } from '../../types.js';
import { type Action, ApiError, api } from './api.js';
import { type Aim, moveAim } from './keyboard.js';
import { isTableau, maxCount, moveTo, type PileId, type Selection, stockMove, targetsOf } from './piles.js';

export interface Message {
  readonly text: string;
  readonly error: boolean;
}

export function useGame(id: string, token: string | undefined) {
  const [view, setView] = useState<View | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [hint, setHint] = useState<PlayedMove | null>(null);
  const [aim, setAim] = useState<Aim>({ pile: 'stock', depth: 1 });
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const viewRef = useRef<View | null>(null);
  viewRef.current = view;

  const show = (next: View) => {
    setView(next);
    setSelection(null);
    setHint(null);
  };

  /** Runs one request at a time; a refusal is shown in the API's words. */
  const run = useCallback(
    async (request: () => Promise<void>) => {
      if (busyRef.current) return;
      busyRef.current = true;
      setBusy(true);
      try {
        await request();
      } catch (error) {
        setSelection(null);
        const text = error instanceof Error ? error.message : String(error);
        setMessage({ text, error: true });
        // Another tab moved this game on: draw the game as it is now.
        if (error instanceof ApiError && error.status === 412) {
          show(await api.getGame(id, token));
          setMessage({ text: `${text} The table now shows the game as it is.`, error: true });
        }
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [id, token],
  );

  useEffect(() => {
    setView(null);
    setMessage(null);
    void run(async () => {
      show(await api.getGame(id, token));
    });
  }, [id, token, run]);

  const version = () => viewRef.current?.version;

  const play = (move: Move) =>
    run(async () => {
      show(await api.move(id, token, move, version()));
      setMessage(null);
    });

  const act = (action: Action, done?: (before: View, after: View) => string | null) =>
    run(async () => {
      const before = viewRef.current;
      const after = await api.act(action, id, token, version());
      show(after);
      setMessage(before && done ? toMessage(done(before, after)) : null);
    });

  const askHint = () =>
    run(async () => {
      const answer = await api.hint(id, token);
      setSelection(null);
      setHint(answer.move);
      // The reason names the move itself; the table shows it (its piles are lit).
      setMessage({ text: `Hint: ${answer.reason}`, error: false });
    });

  /** A click, a tap, Enter, or a drop on a pile; `count` when a card said how many to pick up. */
  const activate = (pile: PileId, count?: number) => {
    if (!view || busyRef.current) return;
    setAim({ pile, depth: count ?? aim.depth });
    if (pile === 'stock') return void play(stockMove(view));
    if (selection) {
      const sameCards = selection.from === pile && (count === undefined || count === selection.count);
      if (sameCards) return setSelection(null);
      const picksOther = count !== undefined && !targetsOf(view, selection).has(pile);
      if (!picksOther) {
        const move = moveTo(selection, pile);
        if (move) return void play(move);
        return setMessage({ text: 'Cards never go onto the waste.', error: true });
      }
    }
    const most = maxCount(view, pile);
    if (most === 0) return setMessage({ text: 'There is no card to pick up there.', error: true });
    const wanted = count ?? (isTableau(pile) ? aim.depth : 1);
    setHint(null);
    setMessage(null);
    setSelection({ from: pile, count: Math.min(wanted, most) });
  };

  const onKey = (event: KeyboardEvent, pile: PileId) => {
    if (!view) return;
    if (event.key === 'Escape') return setSelection(null);
    const next = moveAim(view, { pile, depth: aim.pile === pile ? aim.depth : 1 }, event.key);
    if (!next) return;
    event.preventDefault();
    setAim(next);
    (document.querySelector(`[data-pile="${next.pile}"]`) as HTMLElement | null)?.focus();
  };

  return {
    view,
    message,
    selection,
    hint,
    aim,
    busy,
    targets: view ? targetsOf(view, selection) : new Set<PileId>(),
    play,
    act,
    askHint,
    activate,
    onKey,
    pickUp: (picked: Selection) => {
      setHint(null);
      setSelection(picked);
    },
    /** The end of a drag of `picked` (which a drag's callbacks hold, not this render's selection). */
    drop: (picked: Selection, pile: PileId | null) => {
      const move = pile && pile !== picked.from ? moveTo(picked, pile) : null;
      if (move) void play(move);
      else setSelection(null);
    },
    setAim,
    clear: () => setSelection(null),
  };
}

const toMessage = (text: string | null): Message | null => (text ? { text, error: false } : null);
