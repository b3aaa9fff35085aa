import type { CardCode } from './cards.js';
import type { PlayedMove } from './moves.js';
import type { Rules } from './rules.js';

/**
 * The schema of the events written today. Stored events carry it; `upcast` turns any stored
 * schema into today's events, so old logs keep folding after the shapes change.
 */
export const EVENT_SCHEMA = 1;

export interface DealtData {
  /** The 52 cards in dealing order (docs/rules.md). */
  readonly deck: readonly CardCode[];
  /** The numbered deal's seed, or null for a deal given as cards. */
  readonly seed: number | null;
  readonly rules: Rules;
  /** For a game on a daily deal: its UTC day, `YYYY-MM-DD`. */
  readonly daily?: string;
}

type NoData = Readonly<Record<string, never>>;

/** One accepted action. The deal is version 0; every action after it takes the next version. */
export type GameEvent =
  | { readonly type: 'dealt'; readonly data: DealtData }
  | { readonly type: 'drawn'; readonly data: NoData }
  | { readonly type: 'recycled'; readonly data: NoData }
  | { readonly type: 'moved'; readonly data: PlayedMove & { readonly type: 'move' } }
  | { readonly type: 'undone'; readonly data: { readonly move: PlayedMove } }
  | { readonly type: 'redone'; readonly data: { readonly move: PlayedMove } }
  | { readonly type: 'resigned'; readonly data: NoData };

export type GameEventType = GameEvent['type'];

export const EVENT_TYPES = [
  'dealt',
  'drawn',
  'recycled',
  'moved',
  'undone',
  'redone',
  'resigned',
] as const satisfies readonly GameEventType[];

/** The event that records a played move. */
export function playedEvent(move: PlayedMove): GameEvent {
  switch (move.type) {
    case 'draw':
      return { type: 'drawn', data: {} };
    case 'recycle':
      return { type: 'recycled', data: {} };
    case 'move':
      return { type: 'moved', data: move };
  }
}

/** The move an action event records, if it is one. */
export function playedMove(event: GameEvent): PlayedMove | undefined {
  switch (event.type) {
    case 'drawn':
      return { type: 'draw' };
    case 'recycled':
      return { type: 'recycle' };
    case 'moved':
      return { type: 'move', from: event.data.from, to: event.data.to, count: event.data.count };
    default:
      return undefined;
  }
}

/**
 * Today's event from a stored one of any schema. Schema 1 is today's; a later schema adds a case
 * here and never rewrites the log.
 */
export function upcast(stored: {
  readonly type: string;
  readonly schema: number;
  readonly data: unknown;
}): GameEvent {
  if (stored.schema !== 1 || !EVENT_TYPES.includes(stored.type as GameEventType)) {
    throw new Error(`unknown event ${stored.type} of schema ${stored.schema}`);
  }
  return { type: stored.type, data: stored.data } as GameEvent;
}
