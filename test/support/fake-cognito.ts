/**
 * A stand-in for a Cognito user pool domain, on loopback, for the web client's sign-in tests: the
 * hosted UI's `/oauth2/authorize` (a form that takes an email, no password), `/oauth2/token` (the
 * authorization code grant, checking the PKCE verifier against the challenge as Cognito does),
 * `/logout`, and the issuer's keys at `/.well-known/jwks.json`. Its tokens are shaped as Cognito's:
 * the access token names the client in `client_id`, the ID token in `aud`. It checks what the
 * real one checks of a public client (client id, exact redirect URI, S256, a code used once) and
 * records every request, so a test can say what the page sent. It is not Cognito: its pages,
 * cookies and errors are its own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface FakeCognito {
  readonly url: string;
  readonly clientId: string;
  /** Every request, in order: method, path and its query or form fields. */
  readonly requests: { method: string; path: string; params: Record<string, string> }[];
  /** Registers a callback and sign-out URL of the client (Cognito's CallbackURLs, LogoutURLs). */
  allow(url: string): void;
  /** The next code exchange is refused with this OAuth error. */
  refuseNextExchange(error: string, description: string): void;
  stop(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeCognito(clientId = 'fake-client-id'): Promise<FakeCognito> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'fake-cognito';
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] };
  const allowed = new Set<string>();
  const codes = new Map<string, { challenge: string; redirectUri: string; email: string }>();
  const requests: FakeCognito['requests'] = [];
  let refusal: { error: string; description: string } | undefined;
  let url = '';

  const sign = (claims: Record<string, unknown>, sub: string, audience?: string) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuer(url)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('1h');
    return (audience ? jwt.setAudience(audience) : jwt).sign(privateKey);
  };

  const send = (
    response: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers });
    response.end(body);
  };
  const json = (response: ServerResponse, status: number, body: unknown) =>
    send(response, status, JSON.stringify(body), {
      'content-type': 'application/json',
      // Cognito's token endpoint answers pages of any origin (a public client's page fetches it).
      'access-control-allow-origin': '*',
    });
  const redirect = (response: ServerResponse, to: string) => send(response, 302, '', { location: to });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const at = new URL(request.url ?? '/', url);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const params = request.method === 'POST' ? form : Object.fromEntries(at.searchParams);
    requests.push({ method: request.method ?? 'GET', path: at.pathname, params });

    if (at.pathname === '/.well-known/jwks.json') return json(response, 200, jwks);

    if (at.pathname === '/oauth2/authorize') {
      const p = params;
      const problem =
        p.response_type !== 'code'
          ? 'unsupported_response_type'
          : p.client_id !== clientId
            ? 'invalid_client'
            : !allowed.has(p.redirect_uri ?? '')
              ? 'redirect_mismatch'
              : p.code_challenge_method !== 'S256' || !p.code_challenge
                ? 'invalid_request: PKCE with S256'
                : !p.state
                  ? 'invalid_request: state'
                  : !(p.scope ?? '').split(' ').includes('openid')
                    ? 'invalid_scope'
                    : null;
      if (problem) return send(response, 400, problem, { 'content-type': 'text/plain' });
      const hidden = ['redirect_uri', 'state', 'code_challenge']
        .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(p[name]!)}">`)
        .join('');
      return send(
        response,
        200,
        `<!doctype html><title>Sign in</title><form method="post" action="/login">${hidden}` +
          `<label>Email <input name="email" type="email"></label><button>Sign in</button></form>`,
        { 'content-type': 'text/html; charset=utf-8' },
      );
    }

    if (at.pathname === '/login' && request.method === 'POST') {
      const code = b64url(randomBytes(16));
      codes.set(code, {
        challenge: form.code_challenge!,
        redirectUri: form.redirect_uri!,
        email: form.email!,
      });
      const back = new URL(form.redirect_uri!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', form.state!);
      return redirect(response, back.href);
    }

    if (at.pathname === '/oauth2/token' && request.method === 'POST') {
      if (refusal) {
        const { error, description } = refusal;
        refusal = undefined;
        return json(response, 400, { error, error_description: description });
      }
      const grant = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      const verified =
        grant !== undefined &&
        form.grant_type === 'authorization_code' &&
        form.client_id === clientId &&
        form.redirect_uri === grant.redirectUri &&
        b64url(
          createHash('sha256')
            .update(form.code_verifier ?? '')
            .digest(),
        ) === grant.challenge;
      if (!verified) return json(response, 400, { error: 'invalid_grant' });
      const sub = createHash('sha256').update(grant.email).digest('hex').slice(0, 32);
      return json(response, 200, {
        access_token: await sign(
          { client_id: clientId, token_use: 'access', scope: 'openid email', username: sub },
          sub,
        ),
        id_token: await sign({ email: grant.email, token_use: 'id' }, sub, clientId),
        refresh_token: b64url(randomBytes(32)),
        expires_in: 3600,
        token_type: 'Bearer',
      });
    }

    if (at.pathname === '/logout') {
      if (params.client_id !== clientId || !allowed.has(params.logout_uri ?? ''))
        return send(response, 400, 'invalid logout_uri', { 'content-type': 'text/plain' });
      return redirect(response, params.logout_uri!);
    }
    send(response, 404, 'not found', { 'content-type': 'text/plain' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => send(response, 500, error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    requests,
    allow: (callback) => void allowed.add(callback),
    refuseNextExchange: (error, description) => {
      refusal = { error, description };
    },
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
