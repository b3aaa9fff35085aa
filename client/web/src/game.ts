/**
 * The state of one game on the page and every way to change it. The table is drawn from views the
 * API answers, never from a guess of our own.
 *
 * Every input (a click, a drop, a key) joins one queue and is applied in order, against the game as
 * the answers before it left it: four quick presses of U undo four moves, two clicks on the stock
 * draw twice; a hint is asked for the game the inputs before it left. A refused input is said in
 * words, and the inputs after it still apply, each to the game as it then is. Motion never holds
 * the queue up: an autoplay's or autocomplete's cards are shown going home one after another, and
 * the next input ends that show at once. The hints that offer Autocomplete run beside the queue,
 * and an answer for a game that moved on meanwhile is dropped.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Hint, Move, PlayedMove, View } from '../../types.js';
import { type Action, ApiError, api, isPassing } from './api.js';
import { useDailySecret } from './daily.js';
import { type Aim, moveAim } from './keyboard.js';
import {
  faceUp,
  isFoundation,
  isTableau,
  maxCount,
  moveTo,
  type PileId,
  type Selection,
  stillThere,
  stockMove,
  targetsOf,
} from './piles.js';
import { session } from './session.js';
import { reducedMotion, settings } from './settings.js';
import {
  actedWords,
  aimWords,
  autoplayWords,
  DAILY_SECRET,
  doneWords,
  goneWords,
  hintWords,
  isLostReason,
  isWinningReason,
  letGoWords,
  pickedUpWords,
  problemName,
  problemWords,
  ruleWords,
  SIGN_IN_AGAIN_WORDS,
  SLOW_MS,
  WAITING,
} from './words.js';

export interface Message {
  readonly text: string;
  readonly error: boolean;
}

/** Between two cards of an autoplay or autocomplete going home, ms. */
export const STEP_MS = 160;

type Input = () => Promise<void> | void;

/** A move to a foundation is among the legal moves: only then can an autoplay do anything. */
const canGoHome = (view: View) =>
  view.legalMoves.some(
    (move) => move.type === 'move' && isFoundation(move.to as PileId) && !isFoundation(move.from),
  );

/**
 * What autocomplete needs before it can prove a finish from what the player knows: no card face
 * down in the columns, and the stock's order seen (it is empty, or was dealt through once).
 */
export const allKnown = (view: View) =>
  view.tableau.every((column) => column.hidden === 0) && (view.stock.count === 0 || view.pass >= 2);

/**
 * Every card left is face up in the columns (stock and waste empty): such a game is always won by
 * sending the lowest card home, again and again (each column is a run down, its lowest card on
 * top). Autocomplete is offered without a solver's word (which a daily game in its day cannot ask).
 */
const onlyColumnsLeft = (view: View) =>
  view.stock.count === 0 && view.waste.length === 0 && view.tableau.every((column) => column.hidden === 0);

/** The cards from `code` to the top of a pile, or undefined when the card is not (or no longer) there. */
function countFrom(view: View, pile: PileId, code: string): number | undefined {
  const cards = faceUp(view, pile);
  const at = cards.indexOf(code);
  if (at < 0) return undefined;
  return isTableau(pile) ? cards.length - at : at === cards.length - 1 ? 1 : undefined;
}

/** The same words again, told apart for a live region (see useGame's setMessage). */
const again = (text: string): string => `${text}\u00a0`;

export function useGame(id: string, token: string | undefined, onOpened?: () => void) {
  /** The view drawn: the latest one, or a step of an autoplay on its way to it. */
  const [shown, setShown] = useState<View | null>(null);
  /** The game as the last answer left it: what the next input applies to. */
  const latest = useRef<View | null>(null);
  const [message, setMessageState] = useState<Message | null>(null);
  /** What the last input did, in words, for a screen reader (the page shows it in the table). */
  const [said, setSaidState] = useState('');
  // A live region speaks when its text changes: the same words again (a refusal repeated, a second
  // pick-up of the same card) are told apart by a trailing no-break space, so they are heard again.
  /** Words said so far: an input that says something of its own ("Thinking…") is not said to wait. */
  const messagesSet = useRef(0);
  const setMessage = (next: Message | null) => {
    if (next) messagesSet.current++;
    setMessageState((was) => (next && was?.text === next.text ? { ...next, text: again(next.text) } : next));
  };
  const setSaid = (next: string | ((was: string) => string)) =>
    setSaidState((was) => {
      const text = typeof next === 'function' ? next(was) : next;
      return text !== '' && text === was ? again(text) : text;
    });
  const [selection, setSelectionState] = useState<Selection | null>(null);
  const selectionRef = useRef<Selection | null>(null);
  const [hint, setHint] = useState<PlayedMove | null>(null);
  const [aim, setAim] = useState<Aim>({ pile: 'stock', depth: 1 });
  /** The version at which the hint said that no line can win any more (cleared by an undo). */
  const [lostAt, setLostAt] = useState<number | null>(null);
  /** The version at which a hint found a winning line with every card known: Autocomplete is offered. */
  const [provedAt, setProvedAt] = useState<number | null>(null);
  /** A daily game in its day: no hint (nor the hints asked beside the queue) until it is over. */
  const secret = useDailySecret(shown);

  const opened = useRef(onOpened);
  opened.current = onOpened;
  const queue = useRef<Input[]>([]);
  /** The table left (its game or its token changed, or the view closed): nothing more is sent for it. */
  const left = useRef(false);
  /** Counts the inputs run: one run while a show's frames are on their way cancels the show. */
  const inputs = useRef(0);
  const running = useRef(false);
  const steps = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Counts the shows of the latest view: a late answer (frames, a hint) for an older one is dropped. */
  const showing = useRef(0);

  const setSelection = (next: Selection | null) => {
    selectionRef.current = next;
    setSelectionState(next);
  };

  /** Ends the show of an autoplay's steps: the latest view is drawn at once. */
  const endSteps = () => {
    clearTimeout(steps.current);
    steps.current = undefined;
    if (latest.current) setShown(latest.current);
  };

  /** The game is now `next`, drawn at once. */
  const show = (next: View) => {
    endSteps();
    showing.current++;
    latest.current = next;
    setSelection(null);
    setHint(null);
    setShown(next);
  };

  /** Draws `frames` one after another, then the latest view. */
  const playSteps = (frames: readonly View[]) => {
    let i = 0;
    const step = () => {
      const frame = frames[i++];
      if (!frame) return endSteps();
      setShown(frame);
      steps.current = setTimeout(step, STEP_MS);
    };
    step();
  };

  /**
   * Shows `after`, which an autoplay or autocomplete reached from `before` in several events, card
   * by card: the frames between come from the replay route, which names only face-up cards. The
   * queue goes on at once; the frames play if no other input came meanwhile.
   */
  const showSteps = (before: View, after: View) => {
    if (after.version <= before.version + 1 || reducedMotion()) return show(after);
    show(after);
    setShown(before);
    const shownNow = showing.current;
    const inputsNow = inputs.current;
    api.replay(id, token, before.version + 1, after.version - 1).then(
      ({ frames }) => {
        if (showing.current !== shownNow) return;
        // An input run while the frames were on their way has ended the show before it began.
        if (running.current || selectionRef.current || inputs.current !== inputsNow) endSteps();
        else playSteps(frames.map((f) => f.view));
      },
      () => showing.current === shownNow && endSteps(),
    );
  };

  /**
   * The player's own actions, as the events each took: a move and the safe cards its autoplay sent
   * home are one action, which one Undo takes back whole (and one Redo brings back), as in the
   * solitaires players know. Kept while the page shows the game; without it (after a reload, or
   * when another window played on) an Undo takes back one event.
   */
  const actions = useRef<{ done: number[]; undone: number[] }>({ done: [], undone: [] });
  /** An action of `events` events done. */
  const did = (events: number) => {
    if (events > 0) actions.current = { done: [...actions.current.done, events], undone: [] };
  };

  /** Refuses an input on the page, as the API would: said in words, left in view by the inputs queued after it. */
  const refuse = (text: string) => {
    setSelection(null);
    setMessage({ text, error: true });
    saidRefusal.current = true;
  };
  /** Refuses an input whose card had moved before it came through (`goneWords`). */
  const gone = (card: string, moving: boolean) => refuse(goneWords(card, moving));

  /** What a refused input did to the table: said in words; a table gone stale is drawn again. */
  const refused = async (error: unknown, move: Move | undefined, view: View | null) => {
    setSelection(null);
    if (!(error instanceof ApiError)) {
      setMessage({ text: 'Something went wrong on this page. Reload it to go on.', error: true });
      console.error(error);
      return;
    }
    // A game that only the player's sign-in opened, and the sign-in lapsed: the way on is to sign
    // in again, not another link.
    const lapsed = !token && problemName(error.problem) === 'unauthenticated' && session.get().lapsed;
    setMessage({
      text: lapsed ? SIGN_IN_AGAIN_WORDS : problemWords(error.status, error.problem, { move, view }),
      error: true,
    });
    if (problemName(error.problem) === 'precondition-failed') {
      actions.current = { done: [], undone: [] };
      try {
        show(await api.getGame(id, token));
      } catch {}
    }
  };

  /** The move or action being sent, to word its refusal with the cards it concerned. */
  const sending = useRef<{ move?: Move; view: View | null }>({ view: null });

  /** A refusal was said since the queue last ran dry: the inputs after it leave it in view. */
  const saidRefusal = useRef(false);
  /**
   * Clears the message line, unless it says why an earlier input of this run was refused, or that
   * the server keeps inputs waiting while more wait behind this one (the words would blink).
   */
  const quiet = () => {
    if (saidRefusal.current) return;
    setMessageState((was) => (was?.text.startsWith(WAITING) && queue.current.length > 0 ? was : null));
  };

  const drain = async () => {
    // No busy state: every input waits its turn in the queue, so there is nothing to disable while
    // a request is out, and no redraw of the table for it.
    running.current = true;
    saidRefusal.current = false;
    while (queue.current.length > 0) {
      const input = queue.current.shift()!;
      // An input queued behind a request that began a show ends it too, as it runs.
      inputs.current++;
      endSteps();
      // A server slow to answer is said, not left to look like a table that ignores its player:
      // not over words of the input's own (a hint's "Thinking…"), nor over the reason of a refusal
      // of this run, nor before the table is there (its loading line says so), nor again.
      const messagesBefore = messagesSet.current;
      const slow = setTimeout(() => {
        if (messagesSet.current !== messagesBefore || saidRefusal.current || latest.current === null) return;
        setMessageState((was) => (was?.text.startsWith(WAITING) ? was : { text: WAITING, error: false }));
      }, SLOW_MS);
      try {
        await input();
      } catch (error) {
        // The inputs after a refused one stay queued: each applies to the table as it now is (drawn
        // again when it had gone stale), and one that no longer fits is refused on its own.
        await refused(error, sending.current.move, sending.current.view);
        saidRefusal.current = true;
      } finally {
        clearTimeout(slow);
        // Said until no input waits any more.
        if (queue.current.length === 0)
          setMessageState((was) => (was?.text.startsWith(WAITING) ? null : was));
      }
    }
    running.current = false;
  };

  const enqueue = (input: Input) => {
    // An input ends the show of an autoplay's cards going home: the table it applies to is drawn.
    endSteps();
    queue.current.push(input);
    if (!running.current) void drain();
  };

  /** The game could not be read for a passing reason (a lost connection, a busy server): `open` may read it. */
  const [unread, setUnread] = useState(false);
  /** Reads the game and draws it (queued like any input). */
  const open = () =>
    enqueue(async () => {
      sending.current = { view: null };
      setUnread(false);
      try {
        show(await api.getGame(id, token));
      } catch (failure) {
        setUnread(isPassing(failure));
        throw failure;
      }
      opened.current?.();
    });

  useEffect(() => {
    latest.current = null;
    left.current = false;
    actions.current = { done: [], undone: [] };
    setShown(null);
    setMessage(null);
    open();
    return () => {
      clearTimeout(steps.current);
      // The inputs still waiting were made for this game with this token: once the table leaves
      // (the player signed out, their sign-in lapsed, another game opened) none of them is sent,
      // nor the autoplay after a move under way.
      queue.current = [];
      left.current = true;
    };
  }, [id, token]);

  const version = () => latest.current?.version;

  /** Safe cards home by themselves (the setting), when a move to a foundation is there at all. */
  const autoplayAfter = async (view: View) => {
    if (left.current || !settings.get().autoplay || view.status !== 'playing' || !canGoHome(view)) return;
    sending.current = { view };
    const after = await api.act('autoplay', id, token, view.version);
    if (after.version === view.version) return;
    // The cards went home as part of the move before: one action with it.
    const { done } = actions.current;
    if (done.length > 0) done[done.length - 1]! += after.version - view.version;
    showSteps(view, after);
    setSaid((done) => `${done} ${autoplayWords(view, after)}${after.status === 'won' ? ' You won!' : ''}`);
  };

  const sendMove = async (move: Move) => {
    const before = latest.current!;
    sending.current = { move, view: before };
    const after = await api.move(id, token, move, before.version);
    did(1);
    show(after);
    setSaid(doneWords(move, before, after));
    quiet();
    await autoplayAfter(after);
  };

  const play = (move: Move) => enqueue(() => sendMove(move));

  /** Undoes (or redoes) the player's last action whole: as many events as it took. */
  const takeBack = async (action: 'undo' | 'redo', before: View): Promise<View> => {
    const { done, undone } = actions.current;
    const [from, to] = action === 'undo' ? [done, undone] : [undone, done];
    const events = from.at(-1) ?? 1;
    let view = before;
    try {
      for (let i = 0; i < events && (i === 0 || (action === 'undo' ? view.canUndo : view.canRedo)); i++)
        view = await api.act(action, id, token, view.version);
    } catch (error) {
      // Part of the action may be taken back: from here on an Undo takes back one event.
      actions.current = { done: [], undone: [] };
      if (view !== before) show(view);
      throw error;
    }
    from.pop();
    to.push(events);
    return view;
  };

  const act = (action: Action) =>
    enqueue(async () => {
      const before = latest.current;
      if (before?.status !== 'playing') return;
      // The view says there is nothing to take back (or bring back): no request that must fail.
      if (action === 'undo' && !before.canUndo)
        return refuse(ruleWords('nothing-to-undo', undefined, before));
      if (action === 'redo' && !before.canRedo)
        return refuse(ruleWords('nothing-to-redo', undefined, before));
      sending.current = { view: before };
      // A resignation the player confirmed ends the game as it is, whatever another window did
      // meanwhile: it names no version. The other actions apply to the table shown, or to none.
      const after =
        action === 'undo' || action === 'redo'
          ? await takeBack(action, before)
          : await api.act(action, id, token, action === 'resign' ? undefined : version());
      if (action === 'autoplay' || action === 'autocomplete') did(after.version - before.version);
      if (action === 'autoplay' || action === 'autocomplete') showSteps(before, after);
      else show(after);
      if (action === 'undo' || action === 'redo') setLostAt(null);
      setSaid(actedWords(action, before, after));
      if (action === 'autoplay') setMessage({ text: autoplayWords(before, after), error: false });
      else quiet();
    });

  /** The hint, an input like the others: asked for the game as the inputs before it left it. */
  const askHint = () =>
    enqueue(async () => {
      const view = latest.current;
      if (view?.status !== 'playing') return;
      if (secret) return setMessage({ text: DAILY_SECRET, error: false });
      setMessage({ text: 'Thinking…', error: false });
      sending.current = { view };
      const answer = await api.hint(id, token);
      setSelection(null);
      setHint(answer.move);
      setMessage({ text: hintWords(answer, view), error: false });
      learn(answer, view);
    });

  /** What a hint tells the table beyond its move: the game is lost, or a finish is proved. */
  const learn = (answer: Hint, view: View) => {
    if (isLostReason(answer)) setLostAt(view.version);
    if (isWinningReason(answer) && allKnown(view)) setProvedAt(view.version);
  };

  // Once every card is known, a hint (beside the queue) says whether a finish is proved, which is
  // when Autocomplete can succeed, or that no line wins any more. One such hint at a time (each is
  // a solver's work on the server): moves made meanwhile are looked at once it has answered.
  const looking = useRef(false);
  /** The version last looked at this way: each is asked about once. */
  const lookedAt = useRef<number | null>(null);
  const [looked, setLooked] = useState(0);
  useEffect(() => {
    const view = shown;
    if (secret || looking.current || !view || view !== latest.current || view.status !== 'playing') return;
    if (!allKnown(view) || lookedAt.current === view.version) return;
    looking.current = true;
    lookedAt.current = view.version;
    const asked = showing.current;
    const done = () => {
      looking.current = false;
      setLooked((n) => n + 1);
    };
    api.hint(id, token).then((answer) => {
      if (showing.current === asked) learn(answer, view);
      done();
    }, done);
  }, [shown, looked, secret]);

  /** A click, a tap, Enter, or a drop on a pile; `card` when a card was pressed (its code). */
  const activate = (pile: PileId, card?: string) => {
    // The card was pressed on the table as this version showed it.
    const pressedOn = latest.current?.version;
    enqueue(async () => {
      const view = latest.current;
      if (view?.status !== 'playing') return;
      if (pile === 'stock') {
        if (view.stock.count === 0 && view.waste.length > 0 && view.recyclesLeft === 0) {
          return setMessage({ text: ruleWords('pass-limit', undefined, view), error: true });
        }
        if (view.stock.count === 0 && view.waste.length === 0) return;
        return sendMove(stockMove(view));
      }
      const count = card === undefined ? undefined : countFrom(view, pile, card);
      const picked = selectionRef.current;
      if (picked) {
        const sameCards = picked.from === pile && (count === undefined || count === picked.count);
        if (sameCards) return setSelection(null);
        const picksOther = count !== undefined && !targetsOf(view, picked).has(pile);
        if (!picksOther) {
          if (!stillThere(view, picked)) return gone(picked.card, true);
          const move = moveTo(picked, pile);
          if (move) return sendMove(move);
          setSelection(null);
          return setMessage({ text: 'Cards never go onto the waste.', error: true });
        }
      }
      // A card pressed that cannot be picked up: gone from its place meanwhile (a draw covered it, an
      // undo took it back), or one of the waste's fan under its top, which picks up the top.
      if (
        card !== undefined &&
        count === undefined &&
        (view.version !== pressedOn || !faceUp(view, pile).includes(card))
      )
        return gone(card, false);
      const most = maxCount(view, pile);
      if (most === 0) return setMessage({ text: 'There is no card to pick up there.', error: true });
      const wanted = Math.min(count ?? (isTableau(pile) ? aimRef.current.depth : 1), most);
      setHint(null);
      quiet();
      setSelection({ from: pile, count: wanted, card: faceUp(view, pile).at(-wanted)! });
      setSaid(pickedUpWords(view, pile, wanted));
    });
  };

  const aimRef = useRef(aim);
  aimRef.current = aim;

  const onKey = (event: KeyboardEvent, pile: PileId) => {
    const view = latest.current;
    if (!view) return;
    if (event.key === 'Escape') {
      const held = selectionRef.current;
      setSelection(null);
      if (held) setSaid(letGoWords(held.card, held.count));
      return;
    }
    const depth = aim.pile === pile ? aim.depth : 1;
    const next = moveAim(view, { pile, depth }, event.key);
    if (!next) return;
    event.preventDefault();
    // ↑ ↓ in a column: what Enter would pick up now, said.
    if (next.pile === pile && next.depth !== depth) setSaid(aimWords(view, pile, next.depth));
    setAim(next);
    (document.querySelector(`[data-pile="${next.pile}"]`) as HTMLElement | null)?.focus();
  };

  return {
    /** The view drawn now. */
    view: shown,
    message,
    said,
    selection,
    hint,
    aim,
    /** No line can win from the position drawn (a hint said so). */
    lost: lostAt !== null && shown !== null && shown.version >= lostAt,
    /** A daily game in its day: its hint and analysis are kept until the day is over. */
    secret,
    /** Autocomplete can succeed from here (a hint proved a finish, or only the columns are left). */
    canAutocomplete:
      shown !== null && shown === latest.current && (shown.version === provedAt || onlyColumnsLeft(shown)),
    targets: shown ? targetsOf(shown, selection) : new Set<PileId>(),
    play,
    act,
    /** Refuses an input on the page, in words (a key the game cannot take now). */
    refuse,
    /** Reads the game again, when it could not be read at first (`unread`: no table is drawn). */
    open,
    unread: unread && shown === null,
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
      if (!move) {
        // Put back, or dropped where no card goes: an input all the same, which ends an old message.
        setSelection(null);
        return quiet();
      }
      enqueue(() => {
        const view = latest.current;
        if (view && !stillThere(view, picked)) return gone(picked.card, true);
        return sendMove(move);
      });
    },
    /** A card sent home by a double click. */
    sendHome: (pile: PileId, card: string) =>
      enqueue(() => {
        const view = latest.current;
        if (!view || pile === 'stock' || faceUp(view, pile).at(-1) !== card) return;
        return sendMove({ type: 'move', from: pile, to: 'foundation', count: 1 });
      }),
    setAim,
    say: (text: string, error = false) => setMessage({ text, error }),
  };
}
