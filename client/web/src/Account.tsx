import { useEffect, useRef } from 'preact/hooks';
import { MY_GAMES_LINK } from './links.js';
import { session, useSession } from './session.js';
import { SIGN_IN_NAME_WORDS } from './words.js';

/** A name the development issuer takes (infra/local/issuer.ts checks the same). */
// Spaces around it are taken off (trimmed below), not refused.
const PLAYER_NAME = '\\s*[\\w.@\\-]{1,64}\\s*';

/**
 * The player's corner of every page: "Sign in" (a name, with the development issuer; the sign-in
 * page, with Cognito), or who is signed in, "My games" and "Sign out"; and what happened to the
 * sign-in last (refused, expired, unreachable), in words.
 */
export function Account() {
  const { config, player, notice, busy } = useSession();
  // A sign-in or a sign-out asked here replaces the control the keyboard was on: the keyboard
  // follows, to who is signed in (read out), or back to the sign-in.
  const follow = useRef(false);
  const who = useRef<HTMLSpanElement>(null);
  const signIn = useRef<HTMLInputElement & HTMLButtonElement>(null);
  useEffect(() => {
    if (!follow.current) return;
    follow.current = false;
    (player ? who.current : signIn.current)?.focus();
  }, [player?.name]);

  const signInAs = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    // Checked here rather than by the browser's own bubble, which not every browser or screen
    // reader shows: the refusal is the notice's, in words, as the issuer's would be.
    if (!form.checkValidity()) return session.refuse(SIGN_IN_NAME_WORDS);
    follow.current = true;
    void session.signInAs(String(new FormData(form).get('player') ?? '').trim());
  };

  return (
    <header class="account">
      {player ? (
        <>
          <span class="who" ref={who} tabIndex={-1}>
            Signed in as <strong data-player>{player.name}</strong>
          </span>
          <a class="button" href={MY_GAMES_LINK}>
            My games
          </a>
          <button
            type="button"
            onClick={() => {
              follow.current = true;
              session.signOut();
            }}
          >
            Sign out
          </button>
        </>
      ) : config?.kind === 'dev' ? (
        <form class="sign-in" noValidate onSubmit={signInAs}>
          <label>
            Player name
            <input
              ref={signIn}
              name="player"
              required
              pattern={PLAYER_NAME}
              maxLength={64}
              autoComplete="username"
              placeholder="one word"
              title="One word, 1 to 64 letters a to z, digits, _ . @ or - (no spaces)"
            />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <span class="hint-text">
            (for trying it out: one word of letters a to z, digits, _ . @ or -, no password)
          </span>
        </form>
      ) : config?.kind === 'oauth' ? (
        <button ref={signIn} type="button" disabled={busy} onClick={() => void session.beginSignIn()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      ) : null}
      {notice && (
        <p class={`notice${notice.error ? ' error' : ''}`} role={notice.error ? 'alert' : 'status'}>
          {notice.text}{' '}
          <button type="button" class="link" onClick={session.dismiss}>
            Dismiss
          </button>
        </p>
      )}
    </header>
  );
}
