import { useEffect, useRef, useState } from 'preact/hooks';
import type { Frame, GameEvent, View } from '../../types.js';
import { api } from './api.js';
import { cardShort } from './cards.js';
import { ownGameLink, playLink, tokens } from './links.js';
import { faceUp, type PileId, pileName } from './piles.js';
import { Status } from './Status.js';
import { Table } from './Table.js';

/** Frames come in pages of this many (the API's own limit a response). */
const PAGE = 200;

/** What the event of a frame did, in words, with the cards it moved (from the view after it). */
function describeEvent(event: GameEvent, after: View): string {
  const data = event.data as { from?: PileId; to?: PileId; count?: number; move?: { type: string } };
  switch (event.type) {
    case 'dealt':
      return 'The deal';
    case 'drawn':
      return `Draw (${after.waste.at(-1) ? `${cardShort(after.waste.at(-1)!)} on top of the waste` : 'the waste'})`;
    case 'recycled':
      return 'Turn the waste over';
    case 'moved': {
      const count = data.count ?? 1;
      const cards = data.to ? faceUp(after, data.to).slice(-count).map(cardShort).join(' ') : '';
      return `Move ${cards || `${count} cards`} from ${pileName(data.from!)} to ${pileName(data.to!)}`;
    }
    case 'undone':
      return `Undo (${data.move?.type ?? 'a move'})`;
    case 'redone':
      return `Redo (${data.move?.type ?? 'a move'})`;
    case 'resigned':
      return 'Resign';
  }
}

/**
 * The replay of a game, frame by frame: Previous and Next, the arrow keys, and a scrubber to any
 * version. Every frame is drawn from GET /games/{id}/replay, fetched a page at a time as needed.
 * A finished game's frames show its whole deal; a game in play needs this browser's token.
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
  const [frame, setFrame] = useState<Frame | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pages = useRef(new Map<number, Promise<Map<number, Frame>>>());

  useEffect(() => {
    api.getGame(id, token).then(
      (view) => {
        setGame(view);
        setVersion((v) => Math.min(v, view.version));
      },
      (failure: Error) => setError(failure.message),
    );
  }, [id, token]);

  /** The page holding `v`, fetched once. */
  const page = (v: number, last: number) => {
    const from = Math.floor(v / PAGE) * PAGE;
    let loaded = pages.current.get(from);
    if (!loaded) {
      loaded = api
        .replay(id, token, from, Math.min(from + PAGE - 1, last))
        .then(({ frames }) => new Map(frames.map((f) => [f.version, f])));
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
        setError(null);
        history.replaceState(null, '', `#replay=${encodeURIComponent(id)}&at=${version}`);
      },
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [game, version]);

  const last = game?.version ?? 0;
  const go = (v: number) => setVersion(Math.max(0, Math.min(last, v)));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.target as HTMLElement).closest('input, textarea, select')) return;
      const to = { ArrowLeft: version - 1, ArrowRight: version + 1, Home: 0, End: last }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      go(to);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const shown = frame?.version === version ? frame : null;
  return (
    <main class="replay">
      <header class="toolbar">
        <h1>Replay</h1>
        <a class="button" href="#play">
          Play
        </a>
        {game?.status === 'playing' && token && (
          <a class="button" href={tokens.get(id) ? playLink(id, token) : ownGameLink(id)}>
            Back to the game
          </a>
        )}
      </header>
      {game && (
        <p class="about">
          Game {id}: {game.status === 'won' ? `won in ${game.moves} moves` : game.status}
          {typeof game.seed === 'number' ? `, seed ${game.seed}` : ''}.
        </p>
      )}
      <div class="controls">
        <button type="button" onClick={() => go(version - 1)} disabled={!game || version <= 0}>
          Previous
        </button>
        <input
          type="range"
          aria-label="Version"
          min={0}
          max={last}
          value={version}
          disabled={!game}
          onInput={(event) => go(Number((event.currentTarget as HTMLInputElement).value))}
        />
        <button type="button" onClick={() => go(version + 1)} disabled={!game || version >= last}>
          Next
        </button>
        <span class="frame-number">
          Version <output data-version={shown?.version}>{shown?.version ?? version}</output> of {last}
        </span>
      </div>
      <p class="event" aria-live="polite">
        {shown ? describeEvent(shown.event, shown.view) : ''}
      </p>
      {shown && <Status view={shown.view} />}
      {shown ? <Table view={shown.view} /> : !error && <p class="loading">Loading the replay…</p>}
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {game?.deck && (
        <details class="deal">
          <summary>The deal, in dealing order</summary>
          <p>{game.deck.map(cardShort).join(' ')}</p>
        </details>
      )}
    </main>
  );
}
