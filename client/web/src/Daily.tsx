import { useEffect, useRef, useState } from 'preact/hooks';
import { isDay, shiftDay } from '../../days.js';
import type {
  DailyStanding,
  LeaderboardEntry,
  PlayerProfile,
  PlayerStats,
  Daily as Today,
} from '../../types.js';
import { api, failureWords } from './api.js';
import { dailyLink, ownGameLink, replayLink, tokens } from './links.js';
import { ListTable, MoreButton, usePages } from './Pages.js';
import { useReadModels, useSession } from './session.js';
import {
  clockWords,
  dayWords,
  NO_DEAL_THAT_DAY,
  nameWords,
  noDealWords,
  rankedClocks,
  rulesWords,
} from './words.js';

/** Entries a page of a leaderboard; More brings the next page (the API's `next`). */
export const BOARD_PAGE = 20;

interface Standing {
  readonly today: Today;
  /** The signed-in player's figures of their daily deals. */
  readonly record: PlayerStats['daily'] | null;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Opens the player's game on today's deal: dealt by the first call, the same game by every later one. */
async function openToday(jwt: string): Promise<void> {
  const game = await api.playDaily(jwt);
  tokens.markLast(game.id);
  location.hash = ownGameLink(game.id);
}

/** What the player has done with today's deal, and what they can do next. */
function MyToday({ me, won, jwt }: { me: DailyStanding | null; won: number; jwt: string | undefined }) {
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!jwt) {
    return (
      <p>Sign in (at the top of the page) to play today's deal: one attempt a day, on the leaderboard.</p>
    );
  }
  const open = () => {
    setOpening(true);
    openToday(jwt).catch((failure: unknown) => {
      setOpening(false);
      setError(failureWords(failure));
    });
  };
  const button = (name: string) => (
    <button type="button" class="offer" disabled={opening} onClick={open}>
      {name}
    </button>
  );
  let said: preact.ComponentChildren;
  if (!me) {
    said = (
      <>
        {button("Play today's deal")} One attempt a day: once dealt, the deal is yours until you win or
        resign. No hints and no analysis until the day is over.
      </>
    );
  } else if (me.status === 'playing') {
    said = (
      <>
        {button("Resume today's deal")} Your game is under way: {plural(me.moves, 'move', 'moves')} so far.
      </>
    );
  } else if (me.status === 'won') {
    said = (
      <>
        You won today's deal in {plural(me.moves, 'move', 'moves')} ({plural(me.actions, 'action', 'actions')}
        , {clockWords(me.elapsedMs)})
        {me.rank === null ? (
          '.'
        ) : (
          <>
            : rank <strong data-my-rank={me.rank}>{me.rank}</strong> of {won}.
          </>
        )}{' '}
        <a href={ownGameLink(me.gameId)}>Your game</a>
      </>
    );
  } else {
    said = (
      <>
        You resigned today's deal: one attempt a day, a new deal at midnight UTC.{' '}
        <a href={ownGameLink(me.gameId)}>Your game</a>
      </>
    );
  }
  return (
    <>
      <p class="me-today" data-my-status={me?.status ?? 'none'}>
        {said}
      </p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** "Your name on the leaderboards": GET and PUT /me/profile; a refused name is said in words. */
function NameForm({ jwt }: { jwt: string }) {
  const [profile, setProfile] = useState<PlayerProfile | null>(null);
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    api
      .profile(jwt)
      .then(setProfile, (failure: unknown) => setSaid({ text: failureWords(failure), error: true }));
  }, [jwt]);

  const save = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '');
    // What the page can tell at once is said as it is, not sent to be refused.
    const wrong = nameWords(name);
    if (wrong) return setSaid({ text: wrong, error: true });
    setSaving(true);
    try {
      const saved = await api.setName(jwt, name);
      setProfile(saved);
      setSaid({ text: 'Saved: the leaderboards show it within moments.', error: false });
    } catch (failure) {
      setSaid({ text: failureWords(failure, 'name'), error: true });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="name-title">
      <h2 id="name-title">Your name on the leaderboards</h2>
      {profile && (
        <p>
          The leaderboards show you as <strong data-display-name>{profile.displayName}</strong>
          {profile.name === null ? ', a name made for you until you choose one.' : '.'}
        </p>
      )}
      <form class="name-form" onSubmit={(event) => void save(event)}>
        <label>
          Leaderboard name
          <input name="name" autoComplete="nickname" defaultValue={profile?.name ?? ''} key={profile?.name} />
        </label>
        <button type="submit" disabled={saving}>
          Save name
        </button>
      </form>
      <p class="note">1 to 24 characters: letters of any alphabet, digits, spaces and - _ . '</p>
      {said && (
        <p
          class={`message${said.error ? ' error' : ''}`}
          role={said.error ? 'alert' : 'status'}
          data-name-said
        >
          {said.text}
        </p>
      )}
    </section>
  );
}

function BoardRow({ entry, time }: { entry: LeaderboardEntry; time: string }) {
  return (
    <tr data-rank={entry.rank} data-game={entry.gameId ?? undefined}>
      <td>{entry.rank}</td>
      <td class="player" data-name>
        {entry.player}
      </td>
      <td>{entry.actions}</td>
      <td>{time}</td>
      <td>
        {entry.gameId ? (
          <a href={replayLink(entry.gameId)} aria-label={`Watch the replay of ${entry.player}'s game`}>
            Watch
          </a>
        ) : (
          'after midnight UTC'
        )}
      </td>
      <td>{entry.moves}</td>
      <td>{new Date(entry.finishedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</td>
    </tr>
  );
}

/** A day's leaderboard, a page at a time, with the days around it a click away. */
function Board({ day, today, round }: { day: string; today: string | undefined; round: number }) {
  const board = usePages<LeaderboardEntry, { players: number; won: number }>(
    () =>
      api
        .leaderboard(day, { limit: BOARD_PAGE })
        .then((page) => ({ items: page.entries, next: page.next, beside: page })),
    (cursor) =>
      api
        .leaderboard(day, { limit: BOARD_PAGE, cursor })
        .then((page) => ({ items: page.entries, next: page.next })),
    { doing: 'day', keepAs: 'board' },
  );
  useReadModels(() => void board.load(), [day, round]);
  const { pages, loading, error } = board;
  const isToday = day === today;
  const known = isDay(day);
  /** Whether the Day field is being typed in or stepped with the arrows. */
  const typing = useRef(false);
  const go = (value: string) => {
    if (isDay(value) && value !== day) location.hash = dailyLink(value);
  };

  return (
    <section aria-labelledby="board-title" aria-busy={loading} data-board={day}>
      <h2 id="board-title">
        {isToday ? "Today's leaderboard" : `Leaderboard of ${known ? dayWords(day) : 'that day'}`}
      </h2>
      <nav class="days" aria-label="Other days">
        {/* A day after today, no day at all, or a day before the first daily deal (none the day before
            either) leads back to today. */}
        {today !== undefined && (!known || day > today || (day < today && error === NO_DEAL_THAT_DAY)) ? (
          <a href={dailyLink(today)}>Today's leaderboard</a>
        ) : (
          known && <a href={dailyLink(shiftDay(day, -1))}>Previous day</a>
        )}
        {known && today !== undefined && day < today && <a href={dailyLink(shiftDay(day, 1))}>Next day</a>}
        <label>
          Day
          <input
            type="date"
            name="day"
            value={known ? day : ''}
            max={today}
            // A day picked from the calendar goes at once; one typed or stepped with the arrows goes
            // on Enter or on leaving the field, not at every key.
            onKeyDown={(event) => {
              typing.current = event.key !== 'Enter';
              if (event.key === 'Enter') go(event.currentTarget.value);
            }}
            onChange={(event) => {
              if (!typing.current) go(event.currentTarget.value);
            }}
            onBlur={(event) => {
              if (typing.current) go(event.currentTarget.value);
              typing.current = false;
            }}
          />
        </label>
      </nav>
      <p class="note">
        Won games only, by fewest actions (every move, draw, undo and redo counts), then the shortest time
        from the first action to the win, then the earliest finish; equal on all three share a rank.
        {isToday ? ' Each replay opens after midnight UTC, once the day is over.' : ''}
      </p>
      {error && (
        <p class="message error" role="alert">
          {error === NO_DEAL_THAT_DAY && known && today !== undefined ? noDealWords(day, today) : error}
        </p>
      )}
      {pages && !isToday && (
        <p data-day-standing>
          {plural(pages.beside.players, 'player', 'players')} played this deal; {pages.beside.won} won it.
        </p>
      )}
      {pages && pages.items.length === 0 && <p>No one has won this deal{isToday ? ' yet' : ''}.</p>}
      {pages && pages.items.length > 0 && (
        <ListTable
          label="Leaderboard"
          class="board"
          // What ranks a player, then the replay: on a phone the columns after it scroll sideways.
          headings={['Rank', 'Player', 'Actions', 'Time', 'Replay', 'Moves', 'Finished']}
        >
          {rankedClocks(pages.items).map((time, i) => (
            <BoardRow key={pages.items[i]!.gameId ?? i} entry={pages.items[i]!} time={time} />
          ))}
        </ListTable>
      )}
      {pages?.next && (
        <MoreButton more={board.more} disabled={loading}>
          More players
        </MoreButton>
      )}
    </section>
  );
}

/**
 * The daily deal (`#daily`, `#daily=<day>`): today's deal to play (signed in), the day's standing
 * and the player's own, their name on the leaderboards, and a day's leaderboard (today's unless
 * the link names another), whose entries open their replays once the day is over. Every name is
 * drawn as text: a name is never read as HTML.
 */
export function Daily({ date }: { readonly date: string | undefined }) {
  const { player } = useSession();
  const jwt = player?.token;
  const [standing, setStanding] = useState<Standing | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Counts the Refresh clicks: the leaderboard is asked again on each. */
  const [round, setRound] = useState(0);

  const load = () => {
    Promise.all([api.daily(jwt), jwt ? api.myStats(jwt).then((stats) => stats.daily) : null]).then(
      ([today, record]) => {
        setStanding({ today, record });
        setError(null);
      },
      (failure: unknown) => setError(failureWords(failure)),
    );
  };
  useReadModels(load, [jwt, round]);

  const today = standing?.today;
  const day = date ?? today?.date;
  const record = standing?.record;
  return (
    <main class="daily">
      <header class="toolbar">
        <h1>Daily deal</h1>
        <a class="button" href="#play">
          Play
        </a>
        <button type="button" onClick={() => setRound(round + 1)}>
          Refresh
        </button>
      </header>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {today ? (
        <section aria-labelledby="today-title" data-today={today.date}>
          <h2 id="today-title">Today's deal: {dayWords(today.date)}</h2>
          <p class="about">
            The same deal for everyone all day (UTC), {rulesWords(today.rules)}; a new one at midnight UTC.
          </p>
          <p data-standing>
            {today.players === 0
              ? 'No one has played it yet.'
              : `So far ${plural(today.players, 'player has', 'players have')} played it, and ${today.won} won it.`}
          </p>
          <MyToday me={today.me} won={today.won} jwt={jwt} />
          {record && (
            <p class="about" data-daily-record>
              Your daily deals: {record.played} played, {record.won} won; a streak of{' '}
              {plural(record.currentStreak, 'day', 'days')} (best {record.bestStreak}).
            </p>
          )}
        </section>
      ) : (
        !error && <p class="loading">Loading…</p>
      )}
      {jwt && <NameForm key={jwt} jwt={jwt} />}
      {day && <Board key={day} day={day} today={today?.date} round={round} />}
    </main>
  );
}
