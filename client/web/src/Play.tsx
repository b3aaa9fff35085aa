import { useEffect, useRef, useState } from 'preact/hooks';
import type { NewGame as NewGameBody, PlayedMove, Rules } from '../../types.js';
import { Analysis, WinningLine } from './Analysis.js';
import { api } from './api.js';
import { followPress } from './drag.js';
import { useGame } from './game.js';
import { HelpButton } from './Help.js';
import { SHORTCUTS } from './keyboard.js';
import { DAILY_LINK, dailyLink, ownGameLink, playLink, tokens } from './links.js';
import { NewGame } from './NewGame.js';
import { faceUp, isTableau, type PileId, type Selection } from './piles.js';
import { SettingsButton } from './Settings.js';
import { Status, useGameTime } from './Status.js';
import { session } from './session.js';
import { rulesOf, settings, useSettings } from './settings.js';
import { Table } from './Table.js';
import {
  AUTOCOMPLETE_OFFERED,
  clockWords,
  DAILY_SECRET,
  NO_AUTOCOMPLETE_WORDS,
  OVER_WORDS,
} from './words.js';

/** A deal made from New game: the next play view takes the keyboard to its table. */
let dealtHere = false;

/**
 * Deals a game with the rules of Settings and opens it. Signed in, the game is the player's, and
 * their sign-in token opens it (its own token is not kept: signing out leaves nothing here that
 * opens it). Otherwise its token goes to local storage and into the page's fragment. A deal from
 * New game takes the keyboard to its table (`takeKeyboard`); the first visit's leaves the page
 * as it loaded (the table's ring would look like a choice the player never made), and an arrow key
 * reaches the table all the same. Where the player went elsewhere while it was dealt (a link
 * opened meanwhile), the address they chose stays.
 */
export async function deal(
  body: NewGameBody,
  { takeKeyboard = true, rules = rulesOf(settings.get()) }: { takeKeyboard?: boolean; rules?: Rules } = {},
): Promise<void> {
  const jwt = session.get().player?.token;
  const from = location.hash;
  const created = await api.createGame({ ...body, rules }, jwt);
  if (location.hash !== from) return;
  dealtHere = takeKeyboard;
  if (jwt) {
    tokens.markLast(created.id);
    location.hash = ownGameLink(created.id);
    return;
  }
  tokens.remember(created.id, created.token);
  location.hash = playLink(created.id, created.token);
}

/** The play view: the buttons, the bar, the table, the line that says what happened. */
export function Play({
  id,
  token,
  onOpened,
}: {
  readonly id: string;
  readonly token: string | undefined;
  /** Called once the game has opened with `token`. */
  readonly onOpened?: (() => void) | undefined;
}) {
  const game = useGame(id, token, onOpened);
  const { view } = game;
  const chosen = useSettings();
  const time = useGameTime(id, token, view);
  const [watching, setWatching] = useState<PlayedMove[] | null>(null);
  const playing = view?.status === 'playing';
  const legal = (type: 'draw' | 'recycle') => !!view?.legalMoves.some((move) => move.type === type);

  // Where the keyboard goes on when the button it was on leaves with what it did: Resign (disabled
  // once the game is over) to the finished game's words, New game's dialog to the new deal's table.
  const before = useRef<{ id: string; status: string } | null>(null);
  useEffect(() => {
    if (!view) return;
    const was = before.current;
    before.current = { id: view.id, status: view.status };
    // A new deal opens a play view of its own: it knows it by the deal made here.
    const dealt = was === null && dealtHere;
    dealtHere = false;
    const changed =
      dealt ||
      (was !== null && (was.id !== view.id || (was.status === 'playing' && view.status !== 'playing')));
    const focused = document.activeElement;
    if (!changed || (focused !== null && focused !== document.body)) return;
    const next =
      view.status === 'playing'
        ? document.querySelector<HTMLElement>('[data-pile][tabindex="0"]')
        : document.querySelector<HTMLElement>('.over .finished');
    next?.focus();
  }, [view?.id, view?.status]);

  // The letter keys, anywhere on the page but in a field or a dialog. Each press is one input.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.ctrlKey || event.metaKey || event.altKey || target.closest('input, textarea, select, dialog'))
        return;
      // An arrow, Home, End or Enter while nothing has the keyboard (a page just opened) takes it
      // to the table, as Tab would after the buttons: the table then says where it aims.
      if (
        ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Enter'].includes(event.key) &&
        (document.activeElement === null || document.activeElement === document.body)
      ) {
        const table = document.querySelector<HTMLElement>('[data-pile][tabindex="0"]');
        if (table) {
          event.preventDefault();
          table.focus();
        }
        return;
      }
      const key = event.key.toLowerCase();
      if (!(key in SHORTCUTS) || !view) return;
      event.preventDefault();
      // A key the game cannot take now is said, not ignored in silence.
      if (view.status !== 'playing') return game.refuse(OVER_WORDS);
      if (key === 'c' && !game.canAutocomplete) return game.refuse(NO_AUTOCOMPLETE_WORDS);
      if (key === 'c') game.act('autocomplete');
      if (key === 'd') game.activate('stock');
      if (key === 'u') game.act('undo');
      if (key === 'r') game.act('redo');
      if (key === 'h') game.askHint();
      if (key === 'a') game.act('autoplay');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const onPointerDown = (event: PointerEvent, pile: PileId, index: number) => {
    if (!view || !playing || pile === 'stock') return;
    const cards = faceUp(view, pile);
    // Off the waste or a foundation only the top card moves; in a column, a card and all on it.
    if (!isTableau(pile) && index !== cards.length - 1) return;
    const count = isTableau(pile) ? cards.length - index : 1;
    const picked: Selection = { from: pile, count, card: cards[index]! };
    const pileElement =
      (event.currentTarget as HTMLElement) ?? document.querySelector(`[data-pile="${pile}"]`);
    const faceUpCards = [...pileElement.querySelectorAll<HTMLElement>('[data-index]')];
    followPress(event, faceUpCards.slice(faceUpCards.length - count), {
      onStart: () => game.pickUp(picked),
      onDrop: (target) => game.drop(picked, target),
    });
  };

  const elapsed = time.start !== undefined && time.end !== undefined ? time.end - time.start : undefined;
  return (
    <main class="play">
      <header class="toolbar">
        <h1>Klondike</h1>
        <div class="actions">
          <NewGame
            onDeal={(body, rules) => deal(body, rules ? { rules } : {})}
            again={
              // A finished game's deal (shown): dealt again under its own rules, by its number if it has one.
              view?.deck && view.status !== 'playing'
                ? {
                    body: typeof view.seed === 'number' ? { seed: view.seed } : { deck: view.deck },
                    rules: view.rules,
                  }
                : undefined
            }
          />
          <button
            type="button"
            disabled={!playing || !legal('draw')}
            onClick={() => game.play({ type: 'draw' })}
          >
            Draw
          </button>
          <button
            type="button"
            disabled={!playing || !legal('recycle')}
            onClick={() => game.play({ type: 'recycle' })}
          >
            Recycle
          </button>
          <button type="button" disabled={!playing || !view?.canUndo} onClick={() => game.act('undo')}>
            Undo
          </button>
          <button type="button" disabled={!playing || !view?.canRedo} onClick={() => game.act('redo')}>
            Redo
          </button>
          <button
            type="button"
            disabled={!playing || game.secret}
            title={game.secret ? DAILY_SECRET : undefined}
            onClick={game.askHint}
          >
            Hint
          </button>
          <button type="button" disabled={!playing} onClick={() => game.act('autoplay')}>
            Autoplay
          </button>
          {playing && game.canAutocomplete && (
            <button type="button" class="offer" onClick={() => game.act('autocomplete')}>
              Autocomplete
            </button>
          )}
          <button
            type="button"
            disabled={!playing}
            onClick={() => {
              const question = game.secret
                ? "Resign today's deal? One attempt a day: it cannot be dealt to you again today."
                : 'Resign this game? Its whole deal will be shown.';
              if (window.confirm(question)) game.act('resign');
            }}
          >
            Resign
          </button>
          <SettingsButton />
          <HelpButton />
          <a class="button" href={DAILY_LINK}>
            Daily deal
          </a>
        </div>
      </header>
      {view && !watching && <Status view={view} score={chosen.score} time={time} />}
      {view && view.status !== 'playing' && (
        <div class="over">
          <p class="finished" tabIndex={-1}>
            {view.status === 'won'
              ? `You won in ${view.moves} moves${elapsed === undefined ? '' : `, in ${clockWords(elapsed)}`}!`
              : game.secret
                ? "Resigned. Today's deal is shown once the day is over."
                : 'Resigned: the whole deal is shown.'}{' '}
            {view.daily && <a href={dailyLink(view.daily)}>The day's leaderboard</a>}
          </p>
          {game.secret ? (
            <p class="note">
              The analysis of today's deal, and every replay of it, come once the day is over (midnight UTC).
            </p>
          ) : (
            <Analysis view={view} token={token} onWatch={setWatching} />
          )}
        </div>
      )}
      {playing && game.lost && (
        <p class="lost" role="status">
          No line can win this game any more{view.canUndo ? ': undo to go back and try another way' : ''}.
        </p>
      )}
      {view && watching ? (
        <WinningLine
          game={view}
          line={watching}
          onStop={() => {
            setWatching(null);
            // The button leaves with the line: the keyboard goes back to the finished game's words.
            requestAnimationFrame(() => document.querySelector<HTMLElement>('.over .finished')?.focus());
          }}
        />
      ) : view ? (
        <Table
          view={view}
          celebrateWin
          play={
            playing
              ? {
                  selection: game.selection,
                  targets: game.targets,
                  hint: game.hint,
                  focus: game.aim.pile,
                  depth: game.aim.depth,
                  onClick: (pile, card) => game.activate(pile, card),
                  onDoubleClick: (pile, card) => game.sendHome(pile, card),
                  onPointerDown,
                  onKeyDown: game.onKey,
                  onFocus: (pile) => {
                    if (game.aim.pile !== pile) game.setAim({ pile, depth: 1 });
                  },
                }
              : undefined
          }
        />
      ) : game.unread ? (
        // The game could not be read (no table to play on): asked again on Try again.
        <button type="button" class="offer" onClick={() => game.open()}>
          Try again
        </button>
      ) : (
        <p class="loading">{game.message ? '' : 'Laying out the cards…'}</p>
      )}
      <p class={`message${game.message?.error ? ' error' : ''}`} role="status" aria-live="polite">
        {game.message?.text ?? (playing && game.secret ? DAILY_SECRET : '')}
      </p>
      {/* What each input did, for a screen reader: the table shows it to everyone else. */}
      <p class="said" aria-live="polite">
        {game.said}
      </p>
      {/* The button that appears, said: a screen reader does not see it come. */}
      <p class="offered" aria-live="polite">
        {playing && game.canAutocomplete ? AUTOCOMPLETE_OFFERED : ''}
      </p>
    </main>
  );
}
