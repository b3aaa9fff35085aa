import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, CompactSign, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  issuerSettingsFault,
  OIDC_AUDIENCE_ENV,
  OIDC_ISSUER_ENV,
  OIDC_JWKS_URL_ENV,
  playerOf,
} from '../../functions/http/identity.js';
import { Problem } from '../../functions/http/problem.js';

/**
 * Sign-in tokens are checked as docs/api.md says: the signature against the issuer's JWKS,
 * `iss`, `aud` (or `client_id`), `exp` and `nbf`, RS256 or ES256 only. Each way a JWT can be wrong
 * is a 401, never a player.
 */
type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
const ISSUER = 'https://issuer.example';
const AUDIENCE = 'klondike-test';
let jwksServer: Server;
let signing: Key;
let rsa: Key;
let publicJwk: JWK;
let stranger: Key;

beforeAll(async () => {
  const ec = await generateKeyPair('ES256', { extractable: true });
  const rs = await generateKeyPair('RS256', { extractable: true });
  signing = ec.privateKey;
  rsa = rs.privateKey;
  stranger = (await generateKeyPair('ES256')).privateKey;
  publicJwk = { ...(await exportJWK(ec.publicKey)), kid: 'ec', alg: 'ES256' };
  const jwks = { keys: [publicJwk, { ...(await exportJWK(rs.publicKey)), kid: 'rs', alg: 'RS256' }] };
  jwksServer = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  process.env[OIDC_ISSUER_ENV] = ISSUER;
  process.env[OIDC_AUDIENCE_ENV] = AUDIENCE;
  process.env[OIDC_JWKS_URL_ENV] = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
});
afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

const jwt = (claims: Record<string, unknown> = {}, alg = 'ES256', kid = 'ec') =>
  new SignJWT({ aud: AUDIENCE, ...claims })
    .setProtectedHeader({ alg, kid })
    .setIssuer(ISSUER)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('1h');

/** A JWT put together by hand: any header and payload, any signature. */
const raw = (header: object, payload: object, signature = '') =>
  `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}.${signature}`;

async function refused(token: string | Promise<string>): Promise<string> {
  const error = await playerOf(await token).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Problem);
  expect((error as Problem).status).toBe(401);
  return (error as Problem).detail;
}

describe('a sign-in token', () => {
  it('names its player when all holds (ES256, RS256; aud, or client_id as Cognito access tokens carry)', async () => {
    expect(await playerOf(await jwt().sign(signing))).toBe('alice');
    expect(await playerOf(await jwt({}, 'RS256', 'rs').sign(rsa))).toBe('alice');
    expect(await playerOf(await jwt({ aud: undefined, client_id: AUDIENCE }).sign(signing))).toBe('alice');
  });

  it('is 401 with a bad signature', async () => {
    const good = await jwt().sign(signing);
    const [header, payload] = good.split('.');
    const other = (await jwt({ sub: 'mallory' }).sign(signing)).split('.')[2];
    expect(await refused(`${header}.${payload}.${other}`)).toMatch(/signature/);
  });

  it('is 401 as any other string than was issued: padded, or with white space', async () => {
    const good = await jwt().sign(signing);
    for (const changed of [`${good}==`, `${good}=`, ` ${good}`, `${good}\n`]) {
      expect(await refused(changed), JSON.stringify(changed)).toMatch(/not a compact JWS/);
    }
  });

  it('is 401 with alg none', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: ISSUER, aud: AUDIENCE, sub: 'alice', iat: now, exp: now + 3600 };
    expect(await refused(raw({ alg: 'none', typ: 'JWT' }, payload))).toMatch(/algorithm|not a valid/);
  });

  it('is 401 when signed HS256 with the public key as the secret', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
    await refused(jwt({}, 'HS256').sign(secret));
  });

  it('is 401 when expired, or not valid yet', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(
      await refused(
        jwt()
          .setExpirationTime(now - 60)
          .sign(signing),
      ),
    ).toMatch(/expired/);
    expect(
      await refused(
        jwt()
          .setNotBefore(now + 600)
          .sign(signing),
      ),
    ).toMatch(/nbf/);
  });

  it('is 401 without exp (a token that never expires), or without iss', async () => {
    const forever = new SignJWT({ aud: AUDIENCE })
      .setProtectedHeader({ alg: 'ES256', kid: 'ec' })
      .setIssuer(ISSUER)
      .setSubject('alice')
      .setIssuedAt();
    expect(await refused(forever.sign(signing))).toMatch(/exp/);
    const nowhere = new SignJWT({ aud: AUDIENCE })
      .setProtectedHeader({ alg: 'ES256', kid: 'ec' })
      .setSubject('alice')
      .setExpirationTime('1h');
    expect(await refused(nowhere.sign(signing))).toMatch(/iss/);
  });

  it('is 401 when exp is a number no time can reach (1e400, which JSON reads as Infinity)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = `{"iss":"${ISSUER}","aud":"${AUDIENCE}","sub":"alice","iat":${now},"exp":1e400}`;
    const token = await new CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: 'ES256', kid: 'ec' })
      .sign(signing);
    expect(await refused(token)).toMatch(/exp/);
  });

  it('is 401 from another issuer, or for another audience', async () => {
    expect(await refused(jwt().setIssuer('https://elsewhere.example').sign(signing))).toMatch(/iss/);
    expect(await refused(jwt({ aud: 'another-app' }).sign(signing))).toMatch(/aud/);
  });

  it("is 401 when signed by a key that is not in the issuer's JWKS", async () => {
    expect(await refused(jwt({}, 'ES256', 'ec').sign(stranger))).toMatch(/signature/);
    expect(await refused(jwt({}, 'ES256', 'unknown').sign(stranger))).toMatch(/key/);
  });

  it('is 401 without a player, or as garbage', async () => {
    await refused(
      new SignJWT({ aud: AUDIENCE })
        .setProtectedHeader({ alg: 'ES256', kid: 'ec' })
        .setIssuer(ISSUER)
        .setExpirationTime('1h')
        .sign(signing),
    );
    await refused('a.b.c');
  });
});

describe('the claims of a validly signed token', () => {
  it('is 401 when aud is not a string or a list of strings, never a 500', async () => {
    for (const aud of [5, [5], [AUDIENCE, 5], { [AUDIENCE]: true }, null, true]) {
      expect(await refused(jwt({ aud }).sign(signing)), JSON.stringify(aud)).toMatch(/aud/);
    }
    // A list that holds this service's audience among others is this service's.
    expect(await playerOf(await jwt({ aud: ['another-app', AUDIENCE] }).sign(signing))).toBe('alice');
  });

  it("is 401 when its client_id is another app client's and no aud names this one", async () => {
    // Cognito's access tokens carry client_id and no aud: another client of the same pool signs them too.
    expect(await refused(jwt({ aud: undefined, client_id: 'another-client' }).sign(signing))).toMatch(
      /client_id/,
    );
    expect(await refused(jwt({ aud: 'another-app', client_id: 'another-client' }).sign(signing))).toMatch(
      /client_id/,
    );
  });

  it("is 401 when its aud names another service, even with this service's client_id (RFC 7519)", async () => {
    expect(await refused(jwt({ aud: 'another-app', client_id: AUDIENCE }).sign(signing))).toMatch(/aud/);
    expect(await refused(jwt({ aud: [], client_id: AUDIENCE }).sign(signing))).toMatch(/aud/);
  });

  it('is 401 with a sub over 255 characters, and names the player at 255', async () => {
    expect(await refused(jwt().setSubject('p'.repeat(256)).sign(signing))).toMatch(/255/);
    // Characters, not UTF-16 units: 255 of them outside the basic plane are still a player.
    expect(await playerOf(await jwt().setSubject('🂡'.repeat(255)).sign(signing))).toBe('🂡'.repeat(255));
    expect(await playerOf(await jwt().setSubject('p'.repeat(255)).sign(signing))).toBe('p'.repeat(255));
  });
});

describe("the issuer's settings", () => {
  it('are faulted when no sign-in could ever verify with them, each said by name; sound ones pass', () => {
    const base = { [OIDC_ISSUER_ENV]: 'https://issuer.example' };
    expect(issuerSettingsFault({})).toBeUndefined();
    expect(issuerSettingsFault(base)).toBeUndefined();
    expect(issuerSettingsFault({ ...base, [OIDC_JWKS_URL_ENV]: 'http://127.0.0.1:1/jwks' })).toBeUndefined();
    const ec = {
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    };
    expect(issuerSettingsFault({ ...base, OIDC_JWKS: JSON.stringify({ keys: [ec] }) })).toBeUndefined();
    // No key a sign-in token could be signed with (RS256, ES256): none at all, or a shared secret.
    for (const keys of [[], [{ kty: 'oct', k: 'c2VjcmV0' }]]) {
      expect(issuerSettingsFault({ ...base, OIDC_JWKS: JSON.stringify({ keys }) })).toMatch(
        /^OIDC_JWKS holds no RSA or EC key/,
      );
    }
    expect(issuerSettingsFault({ ...base, OIDC_JWKS: 'garbage' })).toMatch(
      /^OIDC_JWKS is no JSON Web Key Set/,
    );
    expect(issuerSettingsFault({ ...base, [OIDC_JWKS_URL_ENV]: 'garbage' })).toBe(
      'OIDC_JWKS_URL=garbage is not an http(s) URL.',
    );
    expect(issuerSettingsFault({ [OIDC_ISSUER_ENV]: 'ftp://issuer' })).toMatch(
      /^OIDC_ISSUER=ftp:\/\/issuer is not an http\(s\) URL/,
    );
  });
});
