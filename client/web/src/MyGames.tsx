import { useEffect, useState } from 'preact/hooks';
import type { GameStatus, GameSummary, PlayerStats } from '../../types.js';
import { api } from './api.js';
import { DAILY_LINK, myGamesLink, ownGameLink, replayLink } from './links.js';
import { ListTable, MoreButton, usePages } from './Pages.js';
import { dollars } from './Status.js';
import { useReadModels, useSession } from './session.js';
import { rulesWords } from './words.js';

/** Games a page: short enough for a phone, and the API's `next` brings the rest. */
export const PAGE_SIZE = 10;

const STATUS_WORDS: Record<GameStatus, string> = { playing: 'In play', won: 'Won', resigned: 'Resigned' };

type Filter = GameStatus | 'all';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '–');

/**
 * "My games" and "My statistics": GET /me/games (newest first, by status, a page at a time) and
 * GET /me/stats. Both are read models, built from the games' logs a moment after each write, so
 * the page says when it asked and has a Refresh.
 */
/** What an empty list says, by its filter. */
const NONE = {
  all: 'No games yet: Play deals one.',
  playing: 'No game in play.',
  won: 'No game won yet.',
  resigned: 'No game resigned.',
} as const;

export function MyGames({ status }: { readonly status: GameStatus | undefined }) {
  const { player } = useSession();
  const [filter, setFilter] = useState<Filter>(status ?? 'all');
  const token = player?.token;
  const asked = () => (filter === 'all' ? {} : { status: filter });
  const list = usePages<GameSummary, PlayerStats>(
    async () => {
      const [page, stats] = await Promise.all([
        api.myGames(token!, { ...asked(), limit: PAGE_SIZE }),
        api.myStats(token!),
      ]);
      return { items: page.games, next: page.next, beside: stats };
    },
    (cursor) =>
      api
        .myGames(token!, { ...asked(), limit: PAGE_SIZE, cursor })
        .then((page) => ({ items: page.games, next: page.next })),
    { keepAs: 'me' },
  );
  const { pages: listing, loading, error } = list;
  const load = () => {
    if (token) void list.load();
  };
  useEffect(list.clear, [token, filter]);
  useReadModels(load, [token, filter]);

  if (!player) {
    return (
      <main class="me">
        <header class="toolbar">
          <h1>My games</h1>
          <a class="button" href="#play">
            Play
          </a>
        </header>
        <p>Sign in (at the top of the page) to keep your games and see your statistics.</p>
      </main>
    );
  }

  const stats = listing?.beside;
  const stat = (name: keyof PlayerStats, label: string, value: string | number | null | undefined) => (
    <div>
      <dt>{label}</dt>
      <dd data-stat={name}>{value ?? '–'}</dd>
    </div>
  );

  return (
    <main class="me" aria-busy={loading}>
      <header class="toolbar">
        <h1>My games</h1>
        <a class="button" href="#play">
          Play
        </a>
        <a class="button" href={DAILY_LINK}>
          Daily deal
        </a>
        <button type="button" onClick={load} disabled={loading}>
          Refresh
        </button>
      </header>
      <p class="about">
        {listing ? `As of ${listing.at.toLocaleTimeString()}. ` : ''}
        Your games and figures are built from each game’s log a moment after every move (about 2 s): Refresh
        to see the latest. A game dealt before you signed in is no one’s: it opens from its link, and is not
        listed here.
      </p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}

      <section aria-labelledby="stats-title">
        <h2 id="stats-title">My statistics</h2>
        {stats ? (
          <dl class="stats">
            {stat('started', 'Started', stats.started)}
            {stat('won', 'Won', stats.won)}
            {stat('resigned', 'Resigned', stats.resigned)}
            {stat('inPlay', 'In play', stats.inPlay)}
            {stat(
              'winRate',
              'Win rate',
              stats.winRate === null ? null : `${Math.round(stats.winRate * 100)} %`,
            )}
            {stat('currentStreak', 'Current streak', stats.currentStreak)}
            {stat('bestStreak', 'Best streak', stats.bestStreak)}
            {stat(
              'bestVegas',
              'Best Vegas score',
              stats.bestVegas === null ? null : dollars(stats.bestVegas),
            )}
            {stat('fewestMovesToWin', 'Fewest moves to win', stats.fewestMovesToWin)}
            {stat('asOf', 'Last counted', when(stats.asOf))}
          </dl>
        ) : (
          !error && <p class="loading">Loading…</p>
        )}
      </section>

      <section aria-labelledby="games-title">
        <h2 id="games-title">Games</h2>
        <label class="filter">
          Show
          <select
            name="status"
            value={filter}
            onChange={(event) => {
              const chosen = (event.currentTarget as HTMLSelectElement).value as Filter;
              setFilter(chosen);
              // In the address, not as a visit: Back to this list, a reload or a bookmark shows the
              // same games.
              history.replaceState(null, '', myGamesLink(chosen === 'all' ? undefined : chosen));
            }}
          >
            <option value="all">all games</option>
            <option value="playing">in play</option>
            <option value="won">won</option>
            <option value="resigned">resigned</option>
          </select>
        </label>
        {listing && listing.items.length === 0 && <p>{NONE[filter]}</p>}
        {listing && listing.items.length > 0 && (
          <ListTable
            label="My games"
            // The link second, after the day: on a phone the columns after it scroll sideways.
            headings={['Dealt', 'Open', 'Status', 'Moves', 'Vegas', 'Standard', 'Rules']}
          >
            {listing.items.map((game) => (
              <tr key={game.id} data-game={game.id} data-status={game.status}>
                <td>
                  {when(game.createdAt)}
                  {game.daily ? ', daily deal' : ''}
                </td>
                <td>
                  {game.status === 'playing' ? (
                    <a href={ownGameLink(game.id)}>Resume</a>
                  ) : (
                    <a href={replayLink(game.id)}>Watch the replay</a>
                  )}
                </td>
                <td>{STATUS_WORDS[game.status]}</td>
                <td>{game.moves}</td>
                <td>{dollars(game.score.vegas)}</td>
                <td>{game.score.standard}</td>
                <td>
                  {game.daily ? `daily deal of ${game.daily}` : rulesWords(game.rules)}
                  {typeof game.seed === 'number' ? `, seed ${game.seed}` : ''}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
        {listing?.next && (
          <MoreButton more={list.more} disabled={loading}>
            More games
          </MoreButton>
        )}
      </section>
    </main>
  );
}
