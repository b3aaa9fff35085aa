import { render } from 'preact';
import { App } from './App.js';
import { session } from './session.js';
import { settings } from './settings.js';
import './style.css';

// The page's own reduced-motion setting also stills the CSS animations (the banner's pop).
const stillness = () =>
  document.documentElement.classList.toggle('reduce-motion', settings.get().reducedMotion);
stillness();
settings.subscribe(stillness);

const root = document.getElementById('app')!;
// Where to sign in is asked at once, beside the first table (which does not wait for it).
void session.loadConfig();
if (/[?&](code|error)=/.test(location.search)) {
  // Back from the sign-in page: the code is exchanged before anything else, so the first request
  // of the page (a resumed game, or a new deal) is already the player's.
  render(<p class="loading">Signing in…</p>, root);
  await session.completeSignIn();
}
render(<App />, root);
