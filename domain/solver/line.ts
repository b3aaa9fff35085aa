import { allHome, suitOf } from '../cards.js';
import type { PlayedMove } from '../moves.js';
import {
  COLUMNS,
  columnPile,
  type DestinationName,
  foundationPile,
  pileName,
  type SourceName,
} from '../piles.js';
import {
  cardOfMove,
  countOf,
  FOUNDATION_TO_TABLEAU,
  fromOf,
  kindOf,
  packMove,
  recycleOf,
  TABLEAU_TO_FOUNDATION,
  TABLEAU_TO_TABLEAU,
  TWIN_THEN_FOUNDATION,
  talonAtOf,
  toOf,
  WASTE_TO_FOUNDATION,
} from './packed-moves.js';
import { play } from './play.js';
import type { Position } from './position.js';

const column = (a: number) => pileName(columnPile(a)) as DestinationName;
const transfer = (from: SourceName, to: DestinationName, count = 1): PlayedMove => ({
  type: 'move',
  from,
  to,
  count,
});

/**
 * The moves a player makes for packed move `m`, given the waste's size and the talon's before it: a
 * macro-move becomes its draws, its recycle and its play from the waste.
 */
export function playerMoves(draw: number, m: number, wasteSize: number, talonSize: number): PlayedMove[] {
  const foundation = pileName(foundationPile(suitOf(cardOfMove(m)))) as DestinationName;
  const kind = kindOf(m);
  switch (kind) {
    case TABLEAU_TO_FOUNDATION:
      return [transfer(column(fromOf(m)), foundation)];
    case TABLEAU_TO_TABLEAU:
      return [transfer(column(fromOf(m)), column(toOf(m)), countOf(m))];
    case TWIN_THEN_FOUNDATION:
      return [
        transfer(column(fromOf(m)), column(toOf(m)), countOf(m)),
        transfer(column(fromOf(m)), foundation),
      ];
    case FOUNDATION_TO_TABLEAU:
      return [transfer(foundation, column(toOf(m)))];
    default: {
      const at = talonAtOf(m);
      const moves: PlayedMove[] = [];
      const draws = (k: number) => {
        for (let i = 0; i < k; i++) moves.push({ type: 'draw' });
      };
      if (recycleOf(m)) {
        draws(Math.ceil((talonSize - wasteSize) / draw));
        moves.push({ type: 'recycle' });
        draws(Math.ceil(at / draw));
      } else {
        draws(Math.ceil((at - wasteSize) / draw));
      }
      moves.push(transfer('waste', kind === WASTE_TO_FOUNDATION ? foundation : column(toOf(m))));
      return moves;
    }
  }
}

/**
 * Plays out a position that finishes by itself (`Position.finishesByItself`): the columns' tops home
 * until the game is won. Returns the moves.
 */
export function finish(position: Position): PlayedMove[] {
  const line: PlayedMove[] = [];
  while (!allHome(position.foundation)) {
    let played = false;
    for (let a = 0; a < COLUMNS; a++) {
      const card = position.top(a);
      if (card < 0 || !position.canGoHome(card)) continue;
      const m = packMove(TABLEAU_TO_FOUNDATION, a, 0, 1, 0, 0, card);
      line.push(...playerMoves(position.draw, m, position.wasteSize, position.talonSize));
      play(position, m);
      played = true;
    }
    if (!played) throw new Error('finish called on a position that does not finish by itself');
  }
  return line;
}
