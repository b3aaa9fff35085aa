import { useEffect, useState } from 'preact/hooks';
import { parsePlace, tokens } from './links.js';
import { deal, Play } from './Play.js';
import { Replay } from './Replay.js';

/**
 * Picks the view from the URL fragment. An empty fragment resumes the last game this browser
 * played, or deals a new one, so that opening the page is enough to play.
 */
export function App() {
  const [place, setPlace] = useState(() => parsePlace(location.hash));
  // Counts the visits by link: opening a replay's link again starts it again (the replay's own
  // steps rewrite the fragment with replaceState, which is no visit).
  const [visit, setVisit] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const onHash = () => {
      setPlace(parsePlace(location.hash));
      setVisit((n) => n + 1);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (place.kind !== 'home') return;
    const last = tokens.last();
    if (last) {
      location.replace(`#game=${encodeURIComponent(last)}`);
      return;
    }
    deal({}).catch((failure: Error) => setError(failure.message));
  }, [place]);

  useEffect(() => {
    if (place.kind === 'play' && place.token) tokens.remember(place.id, place.token);
  }, [place]);

  if (place.kind === 'replay') return <Replay key={`${place.id} ${visit}`} id={place.id} at={place.at} />;
  if (place.kind === 'play') return <Play key={place.id} id={place.id} token={place.token} />;
  return (
    <main>
      <p class={error ? 'message error' : 'loading'} role="status">
        {error ?? 'Dealing…'}
      </p>
    </main>
  );
}
