import { type DestinationName, pileIndex, pileName, type SourceName, type TargetName } from './piles.js';

/** A player's move as a client sends it (POST /games/{id}/moves): piles by name, the count optional. */
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

/**
 * A move as the events record it and the view lists it: piles by name (`t3`, `fH`), the destination
 * resolved to a pile, the count explicit.
 */
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
 * A move as the engine works with it: piles by number (see piles.ts), as chess.js's `InternalMove`
 * works in square indices. Names are for the edges (a client's JSON, the events, the view);
 * `toInternalMove` and `toPlayedMove` convert, once.
 */
export type InternalMove =
  | { readonly type: 'draw' }
  | { readonly type: 'recycle' }
  | ({ readonly type: 'move' } & Transfer);

export const toInternalMove = (move: PlayedMove): InternalMove =>
  move.type === 'move'
    ? { type: 'move', from: pileIndex(move.from), to: pileIndex(move.to), count: move.count }
    : move;

export const toPlayedMove = (move: InternalMove): PlayedMove =>
  move.type === 'move'
    ? { type: 'move', from: pileName(move.from), to: pileName(move.to) as DestinationName, count: move.count }
    : move;
