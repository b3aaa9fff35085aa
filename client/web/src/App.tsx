import { useEffect, useRef, useState } from 'preact/hooks';
import { isDay } from '../../days.js';
import { Account } from './Account.js';
import { Daily } from './Daily.js';
import { parsePlace, tokens } from './links.js';
import { MyGames } from './MyGames.js';
import { deal, Play } from './Play.js';
import { Replay } from './Replay.js';
import { useSession } from './session.js';
import { NO_SUCH_GAME } from './words.js';

/**
 * Picks the view from the URL fragment. An empty fragment resumes the last game this browser
 * played, or deals a new one, so that opening the page is enough to play. A game whose token this
 * browser does not keep is opened with the signed-in player's token (their own games).
 */
export function App() {
  const [place, setPlace] = useState(() => parsePlace(location.hash));
  // Counts the visits by link: opening a replay's link again starts it again (the replay's own
  // steps rewrite the fragment with replaceState, which is no visit).
  const [visit, setVisit] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const { player, lapsed } = useSession();
  const jwt = player?.token;
  const wasSignedIn = useRef(Boolean(jwt));

  useEffect(() => {
    const onHash = () => {
      setPlace(parsePlace(location.hash));
      setVisit((n) => n + 1);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // The tab's and the history's name for each view (WCAG 2.4.2).
  useEffect(() => {
    const title =
      place.kind === 'replay'
        ? 'Replay'
        : place.kind === 'me'
          ? 'My games'
          : place.kind === 'daily'
            ? place.date && isDay(place.date)
              ? `Daily deal of ${place.date}`
              : 'Daily deal'
            : place.kind === 'broken'
              ? 'No such game'
              : undefined;
    document.title = title ? `${title} – Klondike` : 'Klondike';
  }, [place]);

  useEffect(() => {
    if (place.kind !== 'home') return;
    // A link opened since the page was drawn, before anything listened for it: it opens, and
    // nothing is dealt over it.
    const now = parsePlace(location.hash);
    if (now.kind !== 'home') {
      setPlace(now);
      return;
    }
    const last = tokens.last();
    if (last) {
      location.replace(`#game=${encodeURIComponent(last)}`);
      return;
    }
    deal({}, { takeKeyboard: false }).catch((failure: Error) => setError(failure.message));
  }, [place]);

  // Signed out by the button while a game only the sign-in token opened was on the table: back to
  // the start, which resumes the last game this browser keeps. Signed out by an expiry or a
  // refusal, the game stays: the table says to sign in, and signing in again goes on with it.
  useEffect(() => {
    const signedOut = wasSignedIn.current && !jwt;
    wasSignedIn.current = Boolean(jwt);
    if (signedOut && !lapsed && place.kind === 'play' && !place.token) location.hash = '';
  }, [jwt]);

  const view =
    place.kind === 'replay' ? (
      <Replay key={`${place.id} ${visit}`} id={place.id} at={place.at} token={tokens.get(place.id) ?? jwt} />
    ) : place.kind === 'play' ? (
      <Play
        // Opened again when the token that opens it comes or goes (a sign-in lapsed, then renewed).
        key={`${place.id} ${place.token ?? jwt ?? ''}`}
        id={place.id}
        token={place.token ?? jwt}
        // Kept once the game has opened (a mistyped link must not replace the token this browser
        // keeps, nor another player's game become this player's to resume): with its token, or as
        // the signed-in player's own game to resume.
        onOpened={
          place.token ? () => tokens.remember(place.id, place.token!) : () => tokens.markLast(place.id)
        }
      />
    ) : place.kind === 'me' ? (
      <MyGames key={visit} status={place.status} />
    ) : place.kind === 'daily' ? (
      <Daily key={visit} date={place.date} />
    ) : place.kind === 'broken' ? (
      <main class="play">
        <h1>No such game</h1>
        <p class="message error" role="status">
          {error ?? NO_SUCH_GAME}
        </p>
        <div class="buttons">
          <button type="button" onClick={() => deal({}).catch((failure: Error) => setError(failure.message))}>
            New game
          </button>
        </div>
      </main>
    ) : (
      <main class="play">
        <p class={error ? 'message error' : 'loading'} role="status">
          {error ?? 'Dealing…'}
        </p>
      </main>
    );
  // Play and replay fill the window (page.play, page.replay); the other views scroll as pages do.
  return (
    <div class={`page ${place.kind}`}>
      <Account />
      {view}
    </div>
  );
}
