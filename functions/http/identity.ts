import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { timeLimit } from '../timeScale.js';
import { Problem } from './problem.js';

/** Where the functions learn which OpenID Connect issuer to trust (docs/api.md). */
export const OIDC_ISSUER_ENV = 'OIDC_ISSUER';
export const OIDC_AUDIENCE_ENV = 'OIDC_AUDIENCE';
/** Optional: the issuer's JWKS, when it is not at `<issuer>/.well-known/jwks.json`. */
export const OIDC_JWKS_URL_ENV = 'OIDC_JWKS_URL';
/**
 * Optional: the issuer's public keys themselves (a JWKS, as JSON), read instead of fetched. The local
 * runtime hands its development issuer's keys to the functions so: its own routes answer only
 * requests addressed to 127.0.0.1, localhost or [::1], which a runtime bound to another address
 * cannot send itself.
 */
export const OIDC_JWKS_ENV = 'OIDC_JWKS';

/** Only these signatures are accepted: no `none`, no HMAC (whose key would be the public key). */
const ALGORITHMS = ['RS256', 'ES256'];

/** DynamoDB's partition keys hold the player's id: docs/api.md keeps `sub` well inside them. */
export const MAX_SUB_LENGTH = 255;

const unauthenticated = (detail: string) =>
  new Problem(
    'unauthenticated',
    detail,
    {},
    { 'www-authenticate': 'Bearer realm="klondike", error="invalid_token"' },
  );

/**
 * A bearer value meant as a JWT: it has dots, as every compact JWS or JWE does and a game's token
 * (base64url) never does. Whatever its form, it is then checked as a sign-in token: 401 unless it
 * verifies, never taken for a game token or ignored.
 */
export const looksLikeJwt = (bearer: string): boolean => bearer.includes('.');

/** How long a fetch of the issuer's keys may take (scaled by KLONDIKE_TIME_SCALE, ../timeScale.ts). */
const KEYS_FETCH_MS = 2_000;

let keys: { from: string; set: JWTVerifyGetKey } | undefined;

/**
 * The issuer's keys: those given in OIDC_JWKS, else fetched on first use and cached by jose
 * (refetched for an unknown key id).
 */
function issuerKeys(issuer: string): JWTVerifyGetKey {
  const given = process.env[OIDC_JWKS_ENV];
  const from =
    given || process.env[OIDC_JWKS_URL_ENV] || `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`;
  if (keys?.from !== from) {
    const set = given
      ? createLocalJWKSet(JSON.parse(given) as JSONWebKeySet)
      : createRemoteJWKSet(new URL(from), { timeoutDuration: timeLimit(KEYS_FETCH_MS) });
    keys = { from, set };
  }
  return keys.set;
}

/**
 * What is wrong with the issuer's settings in `env`, if anything: OIDC_JWKS that is no JWKS, or keys
 * to fetch from no http(s) URL (OIDC_JWKS_URL's, or the issuer's own). Every sign-in would fail
 * with them, each said as the token's fault or a passing outage; `npm start` refuses them at once.
 */
export function issuerSettingsFault(env: NodeJS.ProcessEnv): string | undefined {
  const issuer = env[OIDC_ISSUER_ENV];
  if (!issuer) return undefined;
  const given = env[OIDC_JWKS_ENV];
  if (given) {
    try {
      const set = JSON.parse(given) as JSONWebKeySet;
      createLocalJWKSet(set);
      // RS256 and ES256 are the algorithms a sign-in token may use: an RSA or an EC key.
      if (set.keys.some((key) => key.kty === 'RSA' || key.kty === 'EC')) return undefined;
      return `${OIDC_JWKS_ENV} holds no RSA or EC key, so no sign-in token (RS256 or ES256) could verify.`;
    } catch (error) {
      return `${OIDC_JWKS_ENV} is no JSON Web Key Set (${(error as Error).message}).`;
    }
  }
  const url = env[OIDC_JWKS_URL_ENV];
  const from = url || `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`;
  if (URL.canParse(from) && /^https?:$/.test(new URL(from).protocol)) return undefined;
  return url
    ? `${OIDC_JWKS_URL_ENV}=${url} is not an http(s) URL.`
    : `${OIDC_ISSUER_ENV}=${issuer} is not an http(s) URL, so its keys cannot be fetched (or give them in ${OIDC_JWKS_URL_ENV} or ${OIDC_JWKS_ENV}).`;
}

const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/**
 * The player a JWT names (its `sub`), once its signature is checked against the issuer's JWKS and
 * `iss`, `aud` (or Cognito's `client_id`), `exp` and `nbf` hold. Anything else is 401.
 */
export async function playerOf(jwt: string): Promise<string> {
  const issuer = process.env[OIDC_ISSUER_ENV];
  const audience = process.env[OIDC_AUDIENCE_ENV];
  if (!issuer || !audience) throw unauthenticated('Sign-in is not configured on this service.');
  // A compact JWS is three base64url parts without padding (RFC 7515; an empty signature is left to
  // jose, which refuses `alg: none`): jose's decoder would also read `=` padding, so a token with it
  // appended would verify, as another string than was issued.
  if (!COMPACT_JWS.test(jwt))
    throw unauthenticated('The sign-in token was refused: it is not a compact JWS.');
  let payload: JWTPayload;
  try {
    // jose checks `exp` and `nbf` only when a token has them: a token without `exp` would never expire.
    ({ payload } = await jwtVerify(jwt, issuerKeys(issuer), {
      issuer,
      algorithms: ALGORITHMS,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC' || error instanceof TypeError) {
      // The issuer's keys could not be fetched: the service's trouble, not the caller's.
      throw new Problem(
        'sign-in-unavailable',
        "The sign-in issuer's keys could not be fetched; retry in a moment.",
        {},
        { 'retry-after': '1' },
      );
    }
    throw unauthenticated(`The sign-in token was refused: ${reasonOf(error)}.`);
  }
  // Claims are whatever the issuer signed: their shapes are checked here, not assumed. JSON's 1e400
  // is Infinity, a number that jose's checks let through: a token that would never expire.
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const value = payload[claim];
    if (value !== undefined && !Number.isFinite(value)) {
      throw unauthenticated(`The sign-in token was refused: its ${claim} claim is not a finite time.`);
    }
  }
  const { aud, sub } = payload;
  const audiences = aud === undefined ? [] : typeof aud === 'string' ? [aud] : aud;
  if (!Array.isArray(audiences) || !audiences.every((entry) => typeof entry === 'string')) {
    throw unauthenticated(
      'The sign-in token was refused: its aud claim is not a string or a list of strings.',
    );
  }
  // An aud, when there is one, must name this service (RFC 7519: a token for another audience is
  // refused, whatever else it carries); client_id stands in only where there is none (Cognito's
  // access tokens).
  if (aud !== undefined ? !audiences.includes(audience) : payload.client_id !== audience) {
    throw unauthenticated('The sign-in token was refused: it is not for this service (aud or client_id).');
  }
  if (typeof sub !== 'string' || sub === '') {
    throw unauthenticated('The sign-in token was refused: it names no player (sub).');
  }
  if ([...sub].length > MAX_SUB_LENGTH) {
    throw unauthenticated(`The sign-in token was refused: its sub is over ${MAX_SUB_LENGTH} characters.`);
  }
  return sub;
}

/** What jose found wrong, in words that name no key material. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'it has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const { claim, reason } = error as { claim?: string; reason?: string };
      return reason === 'missing'
        ? `it has no ${claim} claim`
        : `its ${claim ?? 'claims'} claim does not hold`;
    }
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'its algorithm is not RS256 or ES256';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return "it is signed by a key the issuer's JWKS does not hold";
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'its signature does not verify';
    default:
      return 'it is not a valid JWT';
  }
}
