import { useEffect, useRef, useState } from 'preact/hooks';
import type { Frame, View } from '../../types.js';
import { api, failureWords, isPassing } from './api.js';
import { cardShort } from './cards.js';
import { ownGameLink, playLink, tokens } from './links.js';
import { Status } from './Status.js';
import { useSettings } from './settings.js';
import { Table } from './Table.js';
import { eventWords } from './words.js';

/** Frames come in pages of this many (the API's own limit a response). */
const PAGE = 200;
/** Between two frames when the replay plays itself, ms. */
const PLAY_STEP_MS = 600;

/**
 * The replay of a game, frame by frame: Play (the replay plays itself, card after card) and Pause,
 * Previous and Next, the arrow keys, and a scrubber to any version. Every frame is drawn from
 * GET /games/{id}/replay, fetched a page at a time as needed. A finished game's frames show its
 * whole deal; a game in play needs this browser's token.
 */
export function Replay({
  id,
  at,
  token,
}: {
  readonly id: string;
  readonly at: number | undefined;
  /** Needed only while the game is in play: its own token, or its owner's sign-in token. */
  readonly token: string | undefined;
}) {
  const [game, setGame] = useState<View | null>(null);
  const [version, setVersion] = useState(at ?? 0);
  /** The frame shown: the last one loaded, kept on the table while the next loads (its cards slide). */
  const [frame, setFrame] = useState<Frame | null>(null);
  /** The frame before it, when loaded: what an undo or a redo changed is said from the two. */
  const [before, setBefore] = useState<Frame | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  /** The game could not be loaded for a passing reason (a lost connection, a busy server): Try again loads it. */
  const [again, setAgain] = useState(false);
  /** Counts the Try again clicks: the game is asked again on each. */
  const [round, setRound] = useState(0);
  const [playing, setPlaying] = useState(false);
  /** When the game's first action was made (the log's time), for the clock of each frame. */
  const [firstAt, setFirstAt] = useState<number | undefined>(undefined);
  const pages = useRef(new Map<number, Promise<Map<number, Frame>>>());
  const { score } = useSettings();

  useEffect(() => {
    api.getGame(id, token).then(
      (view) => {
        setGame(view);
        setVersion((v) => Math.min(v, view.version));
        // Opened past the first page: the clock of every frame counts from the first action's time.
        if (view.version >= 1 && Math.min(at ?? 0, view.version) >= PAGE)
          api.replay(id, token, 1, 1).then(
            ({ frames }) => frames[0] && setFirstAt(Date.parse(frames[0].event.at)),
            () => {},
          );
      },
      (failure: unknown) => {
        setError(failureWords(failure, 'replay'));
        setAgain(isPassing(failure));
      },
    );
  }, [id, token, round]);

  /** The page holding `v`, fetched once. */
  const page = (v: number, last: number) => {
    const from = Math.floor(v / PAGE) * PAGE;
    let loaded = pages.current.get(from);
    if (!loaded) {
      loaded = api.replay(id, token, from, Math.min(from + PAGE - 1, last)).then(({ frames }) => {
        const first = frames.find((f) => f.version === 1);
        if (first) setFirstAt(Date.parse(first.event.at));
        return new Map(frames.map((f) => [f.version, f]));
      });
      pages.current.set(from, loaded);
      loaded.catch(() => pages.current.delete(from));
    }
    return loaded;
  };

  useEffect(() => {
    if (!game) return;
    let current = true;
    page(version, game.version).then(
      (frames) => {
        if (!current) return;
        setFrame(frames.get(version) ?? null);
        setBefore(frames.get(version - 1));
        history.replaceState(null, '', `#replay=${encodeURIComponent(id)}&at=${version}`);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(failureWords(failure, 'replay'));
        // Back to the step shown, so that the counter says what the table shows and asking the
        // same step again asks again.
        setPlaying(false);
        setVersion(shownVersion.current ?? 0);
      },
    );
    return () => {
      current = false;
    };
  }, [game, version]);

  const last = game?.version ?? 0;
  // From the version as it is when the step applies, not as last drawn: keys pressed faster than
  // the page redraws each take their step.
  const go = (to: (v: number) => number) => {
    setError(null);
    setVersion((v) => Math.max(0, Math.min(last, to(v))));
  };

  // Playing: the next frame once the one shown is drawn, until the last.
  useEffect(() => {
    if (!playing) return;
    if (version >= last) return setPlaying(false);
    if (frame?.version !== version) return;
    const timer = setTimeout(() => setVersion(version + 1), PLAY_STEP_MS);
    return () => clearTimeout(timer);
  }, [playing, frame, version, last]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.target as HTMLElement).closest('input, textarea, select')) return;
      // Alt+← is the browser's Back, and a modifier is no step.
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const steps: Record<string, (v: number) => number> = {
        ArrowLeft: (v) => v - 1,
        ArrowRight: (v) => v + 1,
        Home: () => 0,
        End: () => last,
      };
      const to = steps[event.key];
      if (to === undefined) return;
      event.preventDefault();
      setPlaying(false);
      go(to);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const shownVersion = useRef<number | undefined>(undefined);
  shownVersion.current = frame?.version;
  const stepTo = (to: (v: number) => number) => {
    setPlaying(false);
    go(to);
  };
  // A button that the last step disabled (Next on the last step, Previous on the first, Play at
  // the end) had the keyboard: it goes to the scrubber, not to the page.
  const scrubber = useRef<HTMLInputElement>(null);
  const focused = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    const lost = document.activeElement === document.body || document.activeElement === focused.current;
    if (focused.current?.disabled && lost) scrubber.current?.focus();
  });
  const keep = (event: FocusEvent) => {
    const target = event.target as HTMLElement;
    focused.current = target instanceof HTMLButtonElement ? target : null;
  };
  const words = frame ? eventWords(frame.event, frame.view, before?.view) : '';
  return (
    <main class="replay" onFocusIn={keep}>
      <header class="toolbar">
        <h1>Replay</h1>
        <div class="actions">
          <button
            type="button"
            disabled={!game || (!playing && version >= last)}
            onClick={() => {
              setError(null);
              setPlaying(!playing);
            }}
          >
            {playing ? 'Pause' : 'Play'}
          </button>
          <button type="button" onClick={() => stepTo((v) => v - 1)} disabled={!game || version <= 0}>
            Previous
          </button>
          <button type="button" onClick={() => stepTo((v) => v + 1)} disabled={!game || version >= last}>
            Next
          </button>
          {game?.status === 'playing' && token ? (
            <a class="button" href={tokens.get(id) ? playLink(id, token) : ownGameLink(id)}>
              Back to the game
            </a>
          ) : (
            // The last game this browser played, or a new deal when it has played none.
            <a class="button" href="#play">
              {tokens.last() ? 'Back to the table' : 'Play a game'}
            </a>
          )}
        </div>
      </header>
      <div class="controls">
        <input
          ref={scrubber}
          type="range"
          aria-label="Step"
          aria-valuetext={`Step ${version} of ${last}`}
          min={0}
          max={last}
          value={version}
          disabled={!game}
          onInput={(event) => {
            const value = Number((event.currentTarget as HTMLInputElement).value);
            stepTo(() => value);
          }}
        />
        <span class="frame-number">
          Step <output data-version={frame?.version}>{frame?.version ?? version}</output> of {last}
        </span>
        <span class="event">{words}</span>
        {/* Where the replay is and what that step did, for a screen reader, at each step. */}
        <span class="said" aria-live="polite">
          {frame ? `Step ${frame.version} of ${last}: ${words}` : ''}
        </span>
      </div>
      {frame && (
        <Status
          view={frame.view}
          versioned={false}
          score={score}
          time={{ start: frame.version >= 1 ? firstAt : undefined, end: Date.parse(frame.event.at), skew: 0 }}
        />
      )}
      {frame ? <Table view={frame.view} /> : !error && <p class="loading">Loading the replay…</p>}
      {error && (
        <p class="message error" role="alert">
          {error}
          {!game && again && (
            <>
              {' '}
              <button
                type="button"
                onClick={() => {
                  setError(null);
                  setAgain(false);
                  setRound(round + 1);
                }}
              >
                Try again
              </button>
            </>
          )}
        </p>
      )}
      {/* The deal is shown once the game is over; a game in play keeps it secret. */}
      {game?.deck && (
        <details class="deal">
          <summary>
            {game.status === 'won' ? `Won in ${game.moves} moves` : 'Resigned'}
            {typeof game.seed === 'number' ? `, deal number ${game.seed}` : ''}. The deal, in dealing order
          </summary>
          <p>{game.deck.map(cardShort).join(' ')}</p>
        </details>
      )}
    </main>
  );
}
