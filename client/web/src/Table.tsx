import type { JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PlayedMove, Suit, View } from '../../types.js';
import { Card } from './Card.js';
import { SUIT_SYMBOLS } from './cards.js';
import { fanOf, type TableSize, tableSize } from './layout.js';
import { celebrate, moveCards, type Places, placesOf, pressedAt } from './motion.js';
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
  /** A click on a pile, and the code of the card clicked if one was. */
  readonly onClick: (pile: PileId, card: string | undefined) => void;
  readonly onDoubleClick: (pile: PileId, card: string) => void;
  readonly onPointerDown: (event: PointerEvent, pile: PileId, index: number) => void;
  readonly onKeyDown: (event: KeyboardEvent, pile: PileId) => void;
  readonly onFocus: (pile: PileId) => void;
}

interface TableProps {
  readonly view: View;
  readonly play?: TablePlay;
  /** Celebrate when this view is a win that the previous one was not (the player just won). */
  readonly celebrateWin?: boolean;
}

/** The card under an event: its place in its pile and its code. */
function cardAt(target: EventTarget | null): { index: number; code: string } | undefined {
  const card = (target as Element | null)?.closest?.('[data-index]');
  return card
    ? { index: Number(card.getAttribute('data-index')), code: card.getAttribute('data-card')! }
    : undefined;
}

/** Cards shown fanned on the waste: its top three, left to right, the top one rightmost. */
const WASTE_FAN = 3;

/** A first guess at the table's room, before it has been measured: most of the window. */
const guessSize = (): TableSize => tableSize(window.innerWidth - 16, window.innerHeight * 0.7);

/**
 * The whole table: stock, waste, the four foundations and the seven columns. Shared by play,
 * replay and the winning line; with `play` the piles are buttons. Only what the view holds is
 * drawn: a game in play has no face-down card's face anywhere in the page, because the API never
 * sent one. The table fills the room its parent gives it: the cards are as big as that room allows
 * with the longest column Klondike can hold, and each column's fan squeezes when it is long.
 */
export function Table({ view, play, celebrateWin }: TableProps) {
  const root = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<TableSize>(guessSize);
  const places = useRef<Places | null>(null);
  const status = useRef(view.status);

  useLayoutEffect(() => {
    const element = root.current!;
    const measure = () => {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) {
        const next = tableSize(box.width, box.height);
        setSize((old) => (old.card === next.card && old.columns === next.columns ? old : next));
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A new view: its cards slide from where they were. A new size: nothing slides, the places change.
  useLayoutEffect(() => {
    const element = root.current!;
    places.current = moveCards(element, places.current);
    if (celebrateWin && view.status === 'won' && status.current === 'playing') celebrate(element);
    status.current = view.status;
  }, [view]);
  useLayoutEffect(() => {
    places.current = placesOf(root.current!);
  }, [size]);

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

  const pile = (id: PileId, children: JSX.Element[], extra = '', style?: Record<string, string>) => {
    const classes = [
      'pile',
      id === 'stock' || id === 'waste' ? id : isTableau(id) ? 'column' : 'foundation',
      extra,
      play?.targets.has(id) ? 'target' : '',
      hintPiles.has(id) ? 'hint' : '',
      play?.selection?.from === id ? 'source' : '',
    ];
    const label = pileLabel(view, id) + (play?.targets.has(id) ? '; takes the picked-up cards' : '');
    const common = {
      'data-pile': id,
      class: classes.filter(Boolean).join(' '),
      'aria-label': label,
      ...(style ? { style } : {}),
    };
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
        onClick={(event) => play.onClick(id, cardAt(event.target)?.code)}
        onDblClick={(event) => {
          const card = cardAt(event.target);
          if (card) play.onDoubleClick(id, card.code);
        }}
        onPointerDown={(event) => {
          const target = pressedAt(event);
          const card = cardAt(target);
          // A press that lands, motion ended, on another pile's card picks up nothing.
          if (card && (target as Element).closest('[data-pile]') === event.currentTarget)
            play.onPointerDown(event, id, card.index);
        }}
        onKeyDown={(event) => play.onKeyDown(event, id)}
        onFocus={() => play.onFocus(id)}
      >
        {children}
      </button>
    );
  };

  // Once a game is over, its views (a replay's frames too, whatever their status then) carry the
  // stock's cards and each column's hidden cards: they are drawn face up, marked.
  const stockCards = view.stock.cards;
  const stock = stockCards
    ? stockCards.map((card, i) => <Card key={card} card={card} index={i} classes="revealed" />)
    : Array.from({ length: view.stock.count }, (_, i) => <Card key={`down${i}`} card={null} />);
  const spent = view.stock.count === 0 && view.waste.length > 0 && view.recyclesLeft === 0;

  const fanned = Math.min(WASTE_FAN, view.waste.length);
  const waste = view.waste.map((card, i) => {
    const position = Math.max(0, i - (view.waste.length - fanned));
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
            <span key="empty" class="placeholder">
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
    // Face-down cards shown face up (the game is over) need room for their rank, as face-up ones.
    const fan = hiddenCards
      ? fanOf(0, hiddenCards.length + cards.length, size)
      : fanOf(hidden, cards.length, size);
    return pile(
      id,
      backs.length + up.length
        ? [...backs, ...up]
        : [
            <span key="empty" class="placeholder">
              K
            </span>,
          ],
      '',
      { '--down': `${fan.down}px`, '--up': `${fan.up}px` },
    );
  };

  const measures = {
    '--card-w': `${size.card}px`,
    '--card-h': `${size.cardHeight}px`,
    '--gap': `${size.gap}px`,
    '--row-gap': `${size.rowGap}px`,
    '--label': `${size.label}px`,
  };

  return (
    <div class={`table${play ? ' playing' : ''}`} ref={root}>
      <div class="table-inner" style={measures}>
        <div class="row top">
          {pile(
            'stock',
            stock.length
              ? stock
              : [
                  <span key="empty" class={`placeholder${spent ? ' spent' : ''}`}>
                    {spent ? '✕' : view.waste.length ? '↻' : ''}
                  </span>,
                ],
          )}
          {pile('waste', waste)}
          {FOUNDATIONS.map(foundation)}
        </div>
        <div class="row columns">{TABLEAU.map(tableau)}</div>
      </div>
    </div>
  );
}
