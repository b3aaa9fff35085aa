/**
 * The signed-in player: who they are and their sign-in token (a JWT), kept in local storage like
 * the games' tokens so that a reload keeps them. Where to sign in comes from `/config.json`
 * (client/site-config.ts): the development issuer of `npm start` (a name posted to `/dev/tokens`),
 * or an OAuth 2.0 server (Cognito's hosted UI) with the authorization code grant and PKCE, which a
 * page can use without a client secret. The page never sees a password.
 */
import { useEffect } from 'preact/hooks';
import { SITE_CONFIG_PATH, type SignInConfig, type SiteConfig } from '../../site-config.js';
import type { Problem } from '../../types.js';
import { tokens } from './links.js';
import { storage, useStore } from './store.js';
import { problemWords } from './words.js';

type OAuth = Extract<SignInConfig, { kind: 'oauth' }>;

export interface Player {
  /** What the page calls them: the name typed (dev), or the email of the ID token. */
  readonly name: string;
  /** The JWT the API takes as `Authorization: Bearer`. */
  readonly token: string;
  /** When the token stops being accepted (ms since the epoch), from its `exp`. */
  readonly expiresAt: number | null;
  /** How to end the sign-in server's session too (the hosted UI keeps one), when there is one. */
  readonly logout?: { readonly url: string; readonly clientId: string; readonly redirectUri: string };
}

export interface Notice {
  readonly text: string;
  readonly error: boolean;
}

export interface SessionState {
  /** Undefined until /config.json has answered. */
  readonly config: SignInConfig | undefined;
  readonly player: Player | null;
  readonly notice: Notice | null;
  /** A sign-in request is out. */
  readonly busy: boolean;
  /**
   * The last sign-out was not the player's doing (an expiry, or the API refusing the token): the
   * game on the table stays there, to go on with once they sign in again.
   */
  readonly lapsed: boolean;
}

const PLAYER = 'klondike.player';
/** The OAuth request in flight: kept for the one tab (session storage) across the trip to the sign-in page. */
const PENDING = 'klondike.signin';

function loadPlayer(): Player | null {
  try {
    const stored = JSON.parse(storage('localStorage')?.getItem(PLAYER) ?? 'null') as Player | null;
    return stored && typeof stored.token === 'string' && typeof stored.name === 'string' ? stored : null;
  } catch {
    return null;
  }
}

/** This tab's note that the sign-in lapsed (sessionStorage), until the next sign-in or sign-out. */
const LAPSED = 'klondike.lapsed';
let state: SessionState = {
  config: undefined,
  player: loadPlayer(),
  notice: null,
  busy: false,
  // Kept for this tab's reloads: a reload of the player's own game still says to sign in again.
  lapsed: storage('sessionStorage')?.getItem(LAPSED) === '1',
};
const listeners = new Set<(next: SessionState) => void>();
let expiry: ReturnType<typeof setTimeout> | undefined;
/** When this page last changed one of the player's games (the read models follow a moment later). */
let lastWrite = 0;

function update(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener(state);
}

/** Signs the player out when their token runs out, rather than at the API's next 401. */
function watchExpiry(): void {
  clearTimeout(expiry);
  const at = state.player?.expiresAt;
  if (!at) return;
  const left = at - Date.now();
  if (left <= 0) return void expired();
  // Timers longer than 2^31 ms fire at once; a sign-in token lives an hour.
  expiry = setTimeout(expired, Math.min(left, 2 ** 31 - 1));
}

function expired(): void {
  const time = new Date(state.player?.expiresAt ?? Date.now()).toLocaleTimeString();
  signOutHere({ text: `Your sign-in expired at ${time}. Sign in again.`, error: true }, true);
}

function setPlayer(player: Player): void {
  try {
    storage('localStorage')?.setItem(PLAYER, JSON.stringify(player));
  } catch {
    // Storage refused: the player stays signed in until the page is closed.
  }
  storage('sessionStorage')?.removeItem(LAPSED);
  update({ player, notice: null, busy: false, lapsed: false });
  watchExpiry();
}

/**
 * Forgets the player in this browser, without a visit to the sign-in server, and the last game if
 * only the sign-in opened it (the next visit deals afresh, whoever comes). `lapsed` (an expiry or a
 * refusal): the table stays on the game, which its player goes on with once signed in again.
 */
function signOutHere(notice: Notice | null, lapsed = false): void {
  clearTimeout(expiry);
  storage('localStorage')?.removeItem(PLAYER);
  tokens.forgetLastUnlessKept();
  try {
    if (lapsed) storage('sessionStorage')?.setItem(LAPSED, '1');
    else storage('sessionStorage')?.removeItem(LAPSED);
  } catch {}
  update({ player: null, notice, busy: false, lapsed });
}

/** The claims of a JWT, unverified: only for what the page shows (name, expiry); the API verifies. */
function claimsOf(jwt: string): Record<string, unknown> {
  try {
    const part = jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(part.padEnd(Math.ceil(part.length / 4) * 4, '=')), (c) =>
      c.charCodeAt(0),
    );
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const expiresAt = (jwt: string): number | null => {
  const exp = claimsOf(jwt).exp;
  return typeof exp === 'number' ? exp * 1000 : null;
};

const reachFailure = (what: string) =>
  new Error(`Cannot reach ${what}. Check the connection, then try again.`);

function isSignInConfig(value: unknown): value is SignInConfig {
  const config = value as Partial<Omit<OAuth, 'kind'>> & { kind?: unknown };
  if (!config || typeof config !== 'object') return false;
  if (config.kind === 'none') return true;
  if (config.kind === 'dev') return typeof (config as { tokenUrl?: unknown }).tokenUrl === 'string';
  return (
    config.kind === 'oauth' &&
    [config.authorizeUrl, config.tokenUrl, config.logoutUrl, config.clientId, config.scope].every(
      (field) => typeof field === 'string' && field !== '',
    )
  );
}

/** base64url without padding, as PKCE (RFC 7636) writes the verifier and the challenge. */
const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

interface Pending {
  readonly state: string;
  readonly verifier: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly logoutUrl: string;
  /** Where the page was (its fragment), to go back there once signed in. */
  readonly returnTo: string;
}

const redirectUriOf = (config: OAuth) => config.redirectUri ?? `${location.origin}/`;

export const session = {
  get: (): SessionState => state,

  /** Asks /config.json where to sign in (once, at start). Without an answer the page plays on, signed out. */
  async loadConfig(): Promise<void> {
    let answer: unknown;
    try {
      const response = await fetch(SITE_CONFIG_PATH, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`${SITE_CONFIG_PATH} answered ${response.status}`);
      answer = ((await response.json()) as Partial<SiteConfig>).signIn;
      if (!isSignInConfig(answer)) throw new Error(`${SITE_CONFIG_PATH} does not say how to sign in`);
    } catch (error) {
      // Why goes to the console: the player needs only to know that signing in is off.
      console.warn(`${SITE_CONFIG_PATH}: ${(error as Error).message}`);
      update({
        config: { kind: 'none' },
        notice: { text: 'Signing in is not available just now; you can play without it.', error: true },
      });
      return;
    }
    update({ config: answer });
  },

  /** The development issuer: a token for the name typed. */
  async signInAs(name: string): Promise<void> {
    const config = state.config;
    if (config?.kind !== 'dev') return;
    update({ busy: true, notice: null });
    try {
      let response: Response;
      try {
        response = await fetch(config.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ player: name }),
        });
      } catch {
        throw reachFailure('the sign-in service');
      }
      const body = (await response.json().catch(() => ({}))) as { token?: unknown } & Partial<Problem>;
      if (!response.ok || typeof body.token !== 'string') {
        throw new Error(problemWords(response.status, body, { doing: 'sign-in' }));
      }
      setPlayer({ name, token: body.token, expiresAt: expiresAt(body.token) });
    } catch (error) {
      update({ busy: false, notice: { text: (error as Error).message, error: true } });
    }
  },

  /** OAuth: off to the sign-in page, with a PKCE challenge and a state to check on the way back. */
  async beginSignIn(): Promise<void> {
    const config = state.config;
    if (config?.kind !== 'oauth') return;
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const challenge = base64url(
      new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
    );
    const pending: Pending = {
      state: base64url(crypto.getRandomValues(new Uint8Array(16))),
      verifier,
      tokenUrl: config.tokenUrl,
      clientId: config.clientId,
      redirectUri: redirectUriOf(config),
      logoutUrl: config.logoutUrl,
      returnTo: location.hash,
    };
    const sessionStore = storage('sessionStorage');
    if (!sessionStore) {
      update({
        notice: {
          text: 'Signing in needs this browser to keep data for the page, which it does not.',
          error: true,
        },
      });
      return;
    }
    sessionStore.setItem(PENDING, JSON.stringify(pending));
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: config.clientId,
      redirect_uri: pending.redirectUri,
      scope: config.scope,
      state: pending.state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    location.assign(`${config.authorizeUrl}?${query}`);
  },

  /**
   * Back from the sign-in page (`/?code=...&state=...`, or `?error=...`): the code is exchanged
   * for tokens with the verifier, by fetch. Nothing to do on an ordinary visit.
   */
  async completeSignIn(): Promise<void> {
    const query = new URLSearchParams(location.search);
    if (!query.has('code') && !query.has('error')) return;
    const sessionStore = storage('sessionStorage');
    const pending = JSON.parse(sessionStore?.getItem(PENDING) ?? 'null') as Pending | null;
    sessionStore?.removeItem(PENDING);
    // The code leaves the address bar (and the history) whatever happens next.
    history.replaceState(null, '', `${location.pathname}${pending?.returnTo ?? location.hash}`);
    const fail = (text: string) => update({ busy: false, notice: { text, error: true } });
    if (query.has('error')) {
      // The OAuth error code and description are for developers (the console); the player reads a sentence.
      console.warn('sign-in failed:', query.get('error'), query.get('error_description'));
      return fail(
        query.get('error') === 'access_denied'
          ? 'Sign-in was cancelled or refused.'
          : 'Sign-in failed: the sign-in service refused it. Try again.',
      );
    }
    if (!pending || pending.state !== query.get('state')) {
      return fail('Sign-in failed: the answer does not match a sign-in started on this page. Try again.');
    }
    update({ busy: true });
    let response: Response;
    try {
      response = await fetch(pending.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: pending.clientId,
          code: query.get('code')!,
          redirect_uri: pending.redirectUri,
          code_verifier: pending.verifier,
        }),
      });
    } catch {
      return fail(reachFailure('the sign-in service').message);
    }
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      id_token?: unknown;
      error?: string;
      error_description?: string;
    };
    if (!response.ok || typeof body.access_token !== 'string') {
      console.warn('sign-in refused:', body.error, body.error_description);
      return fail('Sign-in failed: the sign-in service refused it. Try again.');
    }
    // The access token is the one meant for an API (Cognito names the client in its client_id);
    // the ID token only tells the page what to call the player. The refresh token is not kept: a
    // page that holds no long-lived secret signs in again after the hour.
    const id = typeof body.id_token === 'string' ? claimsOf(body.id_token) : {};
    const access = claimsOf(body.access_token);
    const name = [id.email, id['cognito:username'], access.username, access.sub].find(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    setPlayer({
      name: name ?? 'player',
      token: body.access_token,
      expiresAt: expiresAt(body.access_token),
      logout: { url: pending.logoutUrl, clientId: pending.clientId, redirectUri: pending.redirectUri },
    });
  },

  /** "Sign out": forgotten here, and the sign-in server's own session ended too when it has one. */
  signOut(): void {
    const logout = state.player?.logout;
    signOutHere({ text: 'Signed out.', error: false });
    if (logout) {
      const query = new URLSearchParams({ client_id: logout.clientId, logout_uri: logout.redirectUri });
      location.assign(`${logout.url}?${query}`);
    }
  },

  /** The API refused the player's sign-in (401): signed out, and told so. */
  refused(): void {
    signOutHere(
      {
        text: 'Your sign-in is no longer accepted: you have been signed out. Sign in again.',
        error: true,
      },
      true,
    );
  },

  dismiss: (): void => update({ notice: null }),
  /** A refusal of the page's own (a sign-in name the issuer would refuse), said as the notice. */
  refuse: (text: string): void => update({ notice: { text, error: true } }),

  /** The page changed one of the player's games: their lists and figures follow within seconds. */
  wrote(): void {
    lastWrite = Date.now();
  },
  lastWrite: (): number => lastWrite,

  subscribe(listener: (next: SessionState) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// A token kept from an earlier visit may have run out meanwhile.
watchExpiry();

/** The session, redrawn on every change. */
export const useSession = (): SessionState => useStore(session.get, session.subscribe);

/**
 * The read models follow a write within about 2 s locally (docs/api.md): a view of them
 * opened sooner than that after this page changed one of the player's games asks once more then.
 */
const SETTLE_MS = 2_500;

/** Runs `load` now and whenever `deps` change, and once more when the page's last write has settled. */
export function useReadModels(load: () => void, deps: readonly unknown[]): void {
  useEffect(() => {
    load();
    const since = Date.now() - lastWrite;
    if (since >= SETTLE_MS) return;
    const again = setTimeout(load, SETTLE_MS - since);
    return () => clearTimeout(again);
  }, deps);
}
