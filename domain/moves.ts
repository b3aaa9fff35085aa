import type { DestinationName, SourceName, TargetName } from './piles.js';

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
