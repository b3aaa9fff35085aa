import { useEffect } from 'preact/hooks';
import type { NewGame as NewGameBody, View } from '../../types.js';
import { api } from './api.js';
import { followPress } from './drag.js';
import { useGame } from './game.js';
import { SHORTCUTS } from './keyboard.js';
import { ownGameLink, playLink, replayLink, tokens } from './links.js';
import { NewGame } from './NewGame.js';
import { faceUp, isTableau, maxCount, type PileId, type Selection } from './piles.js';
import { Status } from './Status.js';
import { session } from './session.js';
import { Table } from './Table.js';

/**
 * Deals a game and opens it. Signed in, the game is the player's, and their sign-in token opens it
 * (its own token is not kept: signing out leaves nothing here that opens it). Otherwise its token
 * goes to local storage and into the page's fragment.
 */
export async function deal(body: NewGameBody): Promise<void> {
  const jwt = session.get().player?.token;
  const created = await api.createGame(body, jwt);
  if (jwt) {
    tokens.markLast(created.id);
    location.hash = ownGameLink(created.id);
    return;
  }
  tokens.remember(created.id, created.token);
  location.hash = playLink(created.id, created.token);
}

const cardsHome = (before: View, after: View) =>
  Object.values(after.foundations).flat().length - Object.values(before.foundations).flat().length;

/** The play view: the table, the buttons, the line that says what happened. */
export function Play({ id, token }: { readonly id: string; readonly token: string | undefined }) {
  const game = useGame(id, token);
  const { view } = game;
  const playing = view?.status === 'playing';
  const legal = (type: 'draw' | 'recycle') => !!view?.legalMoves.some((move) => move.type === type);

  // The letter keys, anywhere on the page but in a field or the dialog.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.ctrlKey || event.metaKey || event.altKey || target.closest('input, textarea, select, dialog'))
        return;
      const key = event.key.toLowerCase();
      if (!(key in SHORTCUTS) || !view || view.status !== 'playing') return;
      event.preventDefault();
      if (key === 'd') game.activate('stock');
      if (key === 'u') game.act('undo');
      if (key === 'r') game.act('redo');
      if (key === 'h') game.askHint();
      if (key === 'a') game.act('autoplay', autoplayMessage);
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
    const picked: Selection = { from: pile, count };
    const pileElement =
      (event.currentTarget as HTMLElement) ?? document.querySelector(`[data-pile="${pile}"]`);
    const faceUpCards = [...pileElement.querySelectorAll<HTMLElement>('[data-index]')];
    followPress(event, faceUpCards.slice(faceUpCards.length - count), {
      onStart: () => game.pickUp(picked),
      onDrop: (target) => game.drop(picked, target),
    });
  };

  return (
    <main class="play" aria-busy={game.busy}>
      <header class="toolbar">
        <h1>Klondike</h1>
        <NewGame onDeal={deal} />
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
        <button type="button" disabled={!playing} onClick={game.askHint}>
          Hint
        </button>
        <button type="button" disabled={!playing} onClick={() => game.act('autoplay', autoplayMessage)}>
          Autoplay
        </button>
        <button
          type="button"
          disabled={!playing}
          onClick={() => game.act('autocomplete', () => 'Played to the end.')}
        >
          Autocomplete
        </button>
        <button
          type="button"
          disabled={!playing}
          onClick={() => {
            if (window.confirm('Resign this game? Its whole deal will be shown.')) game.act('resign');
          }}
        >
          Resign
        </button>
      </header>
      {view && <Status view={view} />}
      {view && view.status !== 'playing' && (
        <p class="finished">
          {view.status === 'won' ? `Won in ${view.moves} moves!` : 'Resigned: the whole deal is shown.'}{' '}
          <a href={replayLink(view.id)}>Watch the replay</a>
        </p>
      )}
      {view ? (
        <Table
          view={view}
          play={
            playing
              ? {
                  selection: game.selection,
                  targets: game.targets,
                  hint: game.hint,
                  focus: game.aim.pile,
                  depth: game.aim.depth,
                  onClick: (pile, index) =>
                    game.activate(
                      pile,
                      index === undefined || pile === 'stock' ? undefined : countAt(view, pile, index),
                    ),
                  onDoubleClick: (pile, index) => {
                    if (pile !== 'stock' && index === faceUp(view, pile).length - 1)
                      game.play({ type: 'move', from: pile, to: 'foundation', count: 1 });
                  },
                  onPointerDown,
                  onKeyDown: game.onKey,
                  onFocus: (pile) => {
                    if (game.aim.pile !== pile) game.setAim({ pile, depth: 1 });
                  },
                }
              : undefined
          }
        />
      ) : (
        <p class="loading">{game.message ? '' : 'Loading the game…'}</p>
      )}
      <p class={`message${game.message?.error ? ' error' : ''}`} role="status" aria-live="polite">
        {game.message?.text ?? ''}
      </p>
      <p class="keys">
        Keys: ← → choose a pile, ↑ ↓ more or fewer cards of a column, Enter picks up and puts down, Esc lets
        go;{' '}
        {Object.entries(SHORTCUTS)
          .map(([key, what]) => `${key.toUpperCase()} ${what.toLowerCase()}`)
          .join(', ')}
        . Double-click a card to send it home.
      </p>
    </main>
  );
}

/** The cards a click on the card at `index` picks up: it and every card on it (one off the waste or a foundation). */
const countAt = (view: View, pile: PileId, index: number): number =>
  isTableau(pile) ? maxCount(view, pile) - index : 1;

function autoplayMessage(before: View, after: View): string {
  const home = cardsHome(before, after);
  return home === 0
    ? 'No card could safely go home.'
    : `Autoplay sent ${home} ${home === 1 ? 'card' : 'cards'} home.`;
}
