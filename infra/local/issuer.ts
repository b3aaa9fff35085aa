import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { Problem } from '../../functions/http/problem.js';
import { ANSWER_HEADERS, problemResponse } from '../../functions/http/respond.js';
import { place } from './build-cache.js';
import { requestPath } from './target.js';

/** The audience of the development issuer's tokens (what the functions are told to expect). */
export const DEV_AUDIENCE = 'klondike-local';
/** The file of a `--data` folder that keeps the issuer's signing key. */
export const DEV_ISSUER_KEY_FILE = 'dev-issuer-key.json';
/** How long a development sign-in token is valid (docs/api.md: 1 h). */
const LIFETIME = '1h';
const PLAYER = /^[\w.@-]{1,64}$/;

export interface DevIssuer {
  readonly issuer: string;
  /** Its public keys, as `GET /.well-known/jwks.json` serves them. */
  readonly jwks: { readonly keys: readonly object[] };
  /** A sign-in token for `player`, as the issuer's `POST /dev/tokens` gives it. */
  tokenFor(player: string): Promise<string>;
  /** Serves `GET /.well-known/jwks.json` and `POST /dev/tokens`; false for any other request. */
  serve(request: IncomingMessage, body: Buffer, response: ServerResponse): Promise<boolean>;
}

/** The issuer's signing key as its file keeps it: the private JWK and its key id. */
interface KeptKey {
  readonly kid: string;
  readonly jwk: JWK;
}

/**
 * The signing key kept in `keyFile` (the `--data` folder's), or a new one, written there if a
 * file is named: so the tokens it signed stay valid, for their hour, across a restart on the same
 * folder and address, as the games do. Without a folder the games and the key die with the runtime.
 */
async function signingKey(
  keyFile: string | undefined,
): Promise<{ kid: string; privateKey: CryptoKey; publicJwk: JWK }> {
  let text: string | undefined;
  try {
    if (keyFile) text = readFileSync(keyFile, 'utf8');
  } catch {
    // None kept yet: a new key, kept below.
  }
  if (keyFile && text !== undefined) {
    // A file that holds no key this issuer can sign with (damaged, or edited) is replaced, and said:
    // the sign-in tokens it signed are no longer accepted.
    try {
      const kept = JSON.parse(text) as KeptKey;
      if (kept?.jwk?.d === undefined || typeof kept.kid !== 'string') throw new Error('no signing key in it');
      const { d: _, ...publicJwk } = kept.jwk;
      return { kid: kept.kid, privateKey: (await importJWK(kept.jwk, 'ES256')) as CryptoKey, publicJwk };
    } catch (error) {
      console.error(
        `The development issuer's key file ${keyFile} cannot be used (${(error as Error).message}): a new key replaces it, and sign-in tokens from before are no longer accepted.`,
      );
    }
  }
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `dev-${Date.now().toString(36)}`;
  if (keyFile)
    place(keyFile, JSON.stringify({ kid, jwk: await exportJWK(privateKey) } satisfies KeptKey), 0o600);
  return { kid, privateKey, publicJwk: await exportJWK(publicKey) };
}

/**
 * The development sign-in issuer of `npm start` (never deployed): a key pair (made at the first
 * start, and kept in `keyFile` when one is named), its public key at `GET /.well-known/jwks.json`,
 * and `POST /dev/tokens {"player": "alice"}` answering a JWT for that player, valid for an hour,
 * signed ES256, with this server as `iss`.
 */
export async function startDevIssuer(url: string, keyFile?: string): Promise<DevIssuer> {
  const { kid, privateKey, publicJwk } = await signingKey(keyFile);
  const jwks = { keys: [{ ...publicJwk, kid, alg: 'ES256', use: 'sig' }] };
  const tokenFor = (player: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuer(url)
      .setAudience(DEV_AUDIENCE)
      .setSubject(player)
      .setIssuedAt()
      .setExpirationTime(LIFETIME)
      .sign(privateKey);
  const send = (response: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': `${type}; charset=utf-8`,
      'content-length': Buffer.byteLength(text),
      // As the API's answers: a sign-in token is kept by no cache.
      ...ANSWER_HEADERS,
    });
    response.end(text);
  };
  return {
    issuer: url,
    jwks,
    tokenFor,
    async serve(request, body, response) {
      const path = requestPath(request);
      if (request.method === 'GET' && path === '/.well-known/jwks.json') {
        send(response, 200, jwks);
        return true;
      }
      if (request.method !== 'POST' || path !== '/dev/tokens') return false;
      let player: unknown;
      try {
        player = (JSON.parse(body.toString('utf8')) as { player?: unknown }).player;
      } catch {}
      if (typeof player !== 'string' || !PLAYER.test(player)) {
        const problem = problemResponse(
          new Problem('malformed-request', 'Send {"player": "<name>"}: 1 to 64 letters, digits, _ . @ or -.'),
        );
        send(response, 400, JSON.parse(problem.body!), 'application/problem+json');
        return true;
      }
      send(response, 200, { token: await tokenFor(player) });
      return true;
    },
  };
}
