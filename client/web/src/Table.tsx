import type { JSX } from 'preact';
import type { PlayedMove, Suit, View } from '../../types.js';
import { Card } from './Card.js';
import { SUIT_SYMBOLS } from './cards.js';
import {
  column,
  FOUNDATIONS,
  faceUp,
  isTableau,
  type PileId,
  pileLabel,
  type Selection,
  TABLEAU,
} from './piles.js';

/** What the play view adds to a table: picking up, targets, the hint, keyboard focus, events. */
export interface TablePlay {
  readonly selection: Selection | null;
  readonly targets: ReadonlySet<PileId>;
  readonly hint: PlayedMove | null;
  /** The pile with the keyboard focus (the one tab stop of the table) and, in a column, how many cards Enter picks up. */
  readonly focus: PileId;
  readonly depth: number;
  readonly onClick: (pile: PileId, index: number | undefined) => void;
  readonly onDoubleClick: (pile: PileId, index: number) => void;
  readonly onPointerDown: (event: PointerEvent, pile: PileId, index: number) => void;
  readonly onKeyDown: (event: KeyboardEvent, pile: PileId) => void;
  readonly onFocus: (pile: PileId) => void;
}

interface TableProps {
  readonly view: View;
  readonly play?: TablePlay;
}

/** The index of the card under an event, from its `data-index`. */
function cardIndex(target: EventTarget | null): number | undefined {
  const card = (target as Element | null)?.closest?.('[data-index]');
  return card ? Number(card.getAttribute('data-index')) : undefined;
}

/**
 * The whole table: stock, waste, the four foundations and the seven columns. Shared by play and
 * replay; with `play` the piles are buttons. Only what the view holds is drawn: a game in play
 * has no face-down card's face anywhere in the page, because the API never sent one.
 */
export function Table({ view, play }: TableProps) {
  const hintFrom = play?.hint?.type === 'move' ? play.hint : null;
  const hintPiles = new Set<PileId>(
    !play?.hint ? [] : play.hint.type === 'move' ? [play.hint.from, play.hint.to as PileId] : ['stock'],
  );

  /** Classes of the face-up card at `index` of `pile`: picked up, aimed at by the keyboard, hinted. */
  const cardClasses = (pile: PileId, index: number, size: number): string => {
    const fromTop = size - index;
    const classes: string[] = [];
    if (play?.selection?.from === pile && fromTop <= play.selection.count) classes.push('picked');
    else if (!play?.selection && play?.focus === pile && isTableau(pile) && fromTop <= play.depth)
      classes.push('aimed');
    if (hintFrom?.from === pile && fromTop <= hintFrom.count) classes.push('hinted');
    return classes.join(' ');
  };

  const pile = (id: PileId, children: JSX.Element[], extra = '') => {
    const classes = [
      'pile',
      id === 'stock' || id === 'waste' ? id : isTableau(id) ? 'column' : 'foundation',
      extra,
      play?.targets.has(id) ? 'target' : '',
      hintPiles.has(id) ? 'hint' : '',
      play?.selection?.from === id ? 'source' : '',
    ];
    const label = pileLabel(view, id) + (play?.targets.has(id) ? '; takes the picked-up cards' : '');
    const common = { 'data-pile': id, class: classes.filter(Boolean).join(' '), 'aria-label': label };
    if (!play) {
      return (
        // biome-ignore lint/a11y/useSemanticElements: a pile is a labelled group of cards, not a form's fieldset.
        <div {...common} role="group">
          {children}
        </div>
      );
    }
    // A button: Enter and Space click it, which picks up or puts down as a click does.
    return (
      <button
        type="button"
        {...common}
        tabIndex={play.focus === id ? 0 : -1}
        aria-pressed={play.selection?.from === id}
        onClick={(event) => play.onClick(id, cardIndex(event.target))}
        onDblClick={(event) => {
          const index = cardIndex(event.target);
          if (index !== undefined) play.onDoubleClick(id, index);
        }}
        onPointerDown={(event) => {
          const index = cardIndex(event.target);
          if (index !== undefined) play.onPointerDown(event, id, index);
        }}
        onKeyDown={(event) => play.onKeyDown(event, id)}
        onFocus={() => play.onFocus(id)}
      >
        {children}
      </button>
    );
  };

  // Once a game is over, its views (a replay's frames too, whatever their status then) carry the
  // stock's cards, top first, and each column's hidden cards: they are drawn face up, marked.
  const stockCards = view.stock.cards;
  const stock = stockCards
    ? [...stockCards].reverse().map((card, i) => <Card key={card} card={card} index={i} classes="revealed" />)
    : Array.from({ length: view.stock.count }, (_, i) => <Card key={`down${i}`} card={null} />);

  const fan = view.rules.draw === 3 ? 3 : 1;
  const waste = view.waste.map((card, i) => {
    const position = Math.max(0, i - (view.waste.length - fan));
    return (
      <Card
        key={card}
        card={card}
        index={i}
        classes={`fan${position} ${cardClasses('waste', i, view.waste.length)}`}
      />
    );
  });

  const foundation = (id: (typeof FOUNDATIONS)[number]) => {
    const cards = faceUp(view, id);
    const suit = id[1] as Suit;
    return pile(
      id,
      cards.length
        ? cards.map((card, i) => (
            <Card key={card} card={card} index={i} classes={cardClasses(id, i, cards.length)} />
          ))
        : [
            <span key="empty" class={`placeholder ${suit === 'D' || suit === 'H' ? 'red' : 'black'}`}>
              {SUIT_SYMBOLS[suit]}
            </span>,
          ],
    );
  };

  const tableau = (id: (typeof TABLEAU)[number]) => {
    const { hidden, cards, hiddenCards } = column(view, id);
    const backs = hiddenCards
      ? hiddenCards.map((card) => <Card key={card} card={card} classes="revealed" />)
      : Array.from({ length: hidden }, (_, i) => <Card key={`down${i}`} card={null} />);
    const up = cards.map((card, i) => (
      <Card key={card} card={card} index={i} classes={cardClasses(id, i, cards.length)} />
    ));
    return pile(
      id,
      backs.length + up.length
        ? [...backs, ...up]
        : [
            <span key="empty" class="placeholder">
              K
            </span>,
          ],
    );
  };

  return (
    <div class={`table${play ? ' playing' : ''}`}>
      <div class="row top">
        {pile(
          'stock',
          stock.length
            ? stock
            : [
                <span key="empty" class="placeholder recycle">
                  {view.waste.length ? '↻' : ''}
                </span>,
              ],
        )}
        {pile('waste', waste, `fan-${fan}`)}
        <div class="gap" />
        {FOUNDATIONS.map(foundation)}
      </div>
      <div class="row columns">{TABLEAU.map(tableau)}</div>
    </div>
  );
}
