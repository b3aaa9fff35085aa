import type { GameStatus } from '../../types.js';
import { storage } from './store.js';

/**
 * Where the page is (its URL fragment, never sent to a server) and the games' tokens (local
 * storage only). `#game=<id>&token=<token>` opens a game, `#game=<id>` resumes one whose token this
 * browser keeps (or the signed-in player's own game, opened with their sign-in token),
 * `#replay=<id>` opens a replay, `#me` the player's games and statistics (`#me&status=won` with
 * the won games only, and so on), `#daily` the daily deal (and `#daily=<YYYY-MM-DD>` that day's
 * leaderboard); an empty fragment resumes the last game played.
 */
export type Place =
  | { readonly kind: 'play'; readonly id: string; readonly token: string | undefined }
  | { readonly kind: 'replay'; readonly id: string; readonly at: number | undefined }
  /** My games; `status` is the list's filter (every game when undefined). */
  | { readonly kind: 'me'; readonly status: GameStatus | undefined }
  /** The daily deal; `date` is the day whose leaderboard is shown (today's when undefined). */
  | { readonly kind: 'daily'; readonly date: string | undefined }
  | { readonly kind: 'home' }
  /** A game's or a replay's link with no game in it (`#replay=`, `#game=&token=x`). */
  | { readonly kind: 'broken' };

const STATUSES: readonly GameStatus[] = ['playing', 'won', 'resigned'];

export function parsePlace(hash: string): Place {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.has('me')) {
    const status = params.get('status');
    return { kind: 'me', status: STATUSES.find((known) => known === status) };
  }
  if (params.has('daily')) return { kind: 'daily', date: params.get('daily') || undefined };
  const replay = params.get('replay');
  if (replay) {
    const at = params.get('at');
    return { kind: 'replay', id: replay, at: at !== null && /^\d+$/.test(at) ? Number(at) : undefined };
  }
  const game = params.get('game');
  if (game) return { kind: 'play', id: game, token: params.get('token') ?? tokens.get(game) };
  return params.has('replay') || params.has('game') ? { kind: 'broken' } : { kind: 'home' };
}

export const playLink = (id: string, token: string): string =>
  `#${new URLSearchParams({ game: id, token }).toString()}`;
export const replayLink = (id: string): string => `#${new URLSearchParams({ replay: id }).toString()}`;
/** A signed-in player's game: no token in the link, their sign-in token opens it. */
export const ownGameLink = (id: string): string => `#${new URLSearchParams({ game: id }).toString()}`;
export const MY_GAMES_LINK = '#me';
/** My games showing the games of one status, or all of them. */
export const myGamesLink = (status: GameStatus | undefined): string =>
  status ? `${MY_GAMES_LINK}&${new URLSearchParams({ status }).toString()}` : MY_GAMES_LINK;
export const DAILY_LINK = '#daily';
/** A day's leaderboard (the day is written YYYY-MM-DD, as the API writes it). */
export const dailyLink = (date: string): string => `#daily=${encodeURIComponent(date)}`;

const TOKEN_PREFIX = 'klondike.token.';
const LAST_GAME = 'klondike.last';

export const tokens = {
  get: (id: string): string | undefined => storage()?.getItem(TOKEN_PREFIX + id) ?? undefined,
  remember(id: string, token: string): void {
    try {
      storage()?.setItem(TOKEN_PREFIX + id, token);
      storage()?.setItem(LAST_GAME, id);
    } catch {
      // Full or refused: the link in the address bar still opens the game.
    }
  },
  last: (): string | undefined => storage()?.getItem(LAST_GAME) ?? undefined,
  /** The game to resume on the next visit, when it is opened without a token of its own. */
  markLast(id: string): void {
    try {
      storage()?.setItem(LAST_GAME, id);
    } catch {}
  },
  /** At sign-out: the last game is not resumed if only the forgotten sign-in token opened it. */
  forgetLastUnlessKept(): void {
    const last = tokens.last();
    if (last && !tokens.get(last)) storage()?.removeItem(LAST_GAME);
  },
};
