/**
 * The headers every page and asset of the web client is served with, by CloudFront (a response
 * headers policy) and by `npm start` alike. The page runs only its own scripts and styles and
 * talks only to its own origin, where the API is, and to the sign-in service's token endpoint
 * when there is one (the OAuth code exchange is a fetch); it has no inline script, so the policy
 * needs no 'unsafe-inline' and no nonce.
 */
export function contentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...connectSources].join(' '),
    "base-uri 'none'",
    // Sign-in leaves the page by navigation (location.assign), never by a form.
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of a page that signs in with no other origin (the development issuer is the page's own). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** The page's headers, `connectSources` being the origins it may fetch from besides its own. */
export const siteHeaders = (connectSources: readonly string[] = []): Readonly<Record<string, string>> => ({
  'content-security-policy': contentSecurityPolicy(connectSources),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // The token lives in the fragment, which no Referer carries; no-referrer says so for every link.
  'referrer-policy': 'no-referrer',
});

export const SITE_HEADERS = siteHeaders();

/** Vite names every asset by its content hash: an asset never changes, index.html always may. */
export const cacheControlOf = (path: string): string =>
  path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
