import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { Problem } from '../../functions/http/problem.js';
import { problemResponse } from '../../functions/http/respond.js';

/** The audience of the development issuer's tokens (what the functions are told to expect). */
export const DEV_AUDIENCE = 'klondike-local';
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

/**
 * The development sign-in issuer of `npm start` (never deployed): a key pair made at start, its
 * public key at `GET /.well-known/jwks.json`, and `POST /dev/tokens {"player": "alice"}` answering a
 * JWT for that player, valid for an hour, signed ES256, with this server as `iss`.
 */
export async function startDevIssuer(url: string): Promise<DevIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `dev-${Date.now().toString(36)}`;
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] };
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
    });
    response.end(text);
  };
  return {
    issuer: url,
    jwks,
    tokenFor,
    async serve(request, body, response) {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
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
