import { type DestinationName, pileIndex, pileName, type SourceName, type TargetName } from './piles.js';

/** A player's move, in the contract's JSON form. */
export type Move =
  | { readonly type: 'draw' }
  | { readonly type: 'recycle' }
  | { readonly type: 'move'; readonly from: SourceName; readonly to: TargetName; readonly count?: number };

/** Everything a player may ask of a game in play. */
export type Command =
  | Move
  | { readonly type: 'undo' }
  | { readonly type: 'redo' }
  | { readonly type: 'resign' };

/** A move as the engine recorded it: destination resolved to a pile, count explicit. */
export type PlayedMove =
  | { readonly type: 'draw' }
  | { readonly type: 'recycle' }
  | {
      readonly type: 'move';
      readonly from: SourceName;
      readonly to: DestinationName;
      readonly count: number;
    };

/** Cards taken from one pile onto another, piles by number (see piles.ts). */
export interface Transfer {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

/**
 * A move as the engine works with it: piles by number, as chess.js works in square indices. Names
 * are for the edges (a client's JSON, the events, the view); `toPlay` and `toPlayed` convert, once.
 */
export type Play =
  | { readonly type: 'draw' }
  | { readonly type: 'recycle' }
  | ({ readonly type: 'move' } & Transfer);

export const toPlay = (move: PlayedMove): Play =>
  move.type === 'move'
    ? { type: 'move', from: pileIndex(move.from), to: pileIndex(move.to), count: move.count }
    : move;

export const toPlayed = (play: Play): PlayedMove =>
  play.type === 'move'
    ? { type: 'move', from: pileName(play.from), to: pileName(play.to) as DestinationName, count: play.count }
    : play;
