/**
 * The headers every page and asset of the web client is served with, by CloudFront (a response
 * headers policy) and by `npm start` alike. The page runs only its own scripts and styles and
 * talks only to its own origin, where the API is; it has no inline script, so the policy needs
 * no 'unsafe-inline' and no nonce.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SITE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // The token lives in the fragment, which no Referer carries; no-referrer says so for every link.
  'referrer-policy': 'no-referrer',
};

/** Vite names every asset by its content hash: an asset never changes, index.html always may. */
export const cacheControlOf = (path: string): string =>
  path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
