import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_AUDIENCE_ENV, OIDC_ISSUER_ENV } from '../../functions/http/identity.js';
import { startStoreProxy } from '../../infra/local/proxy.js';
import type { Runtime } from '../../infra/local/runtime.js';
import { startLocalStore } from '../../infra/local/store.js';
import { addressedHere } from '../../infra/local/target.js';
import { startLocal } from '../support/local.js';

/**
 * The local runtime's own routes (`/dev/*`, `/.well-known/jwks.json`) answer only requests
 * addressed to it from this machine and from no other site's page (docs/api.md), so a web
 * page elsewhere cannot mint tokens or rebuild read models through a browser (DNS rebinding, a
 * simple cross-site POST); with another issuer trusted none of them exists. And headers or a body
 * still arriving after their time (30 s; here 500 ms) are 408 (docs/api.md).
 */
const REQUEST_TIMEOUT_MS = 500;

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: any;
  readonly cache: string | undefined;
  readonly sniff: string | undefined;
}

/** A request with any Host and Origin (fetch sets Host itself). */
function ask(
  runtime: Runtime,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const url = new URL(runtime.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { host: url.host, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers['content-type'],
            body: parsed,
            cache: response.headers['cache-control'],
            sniff: response.headers['x-content-type-options'] as string | undefined,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const OWN = [
  ['POST', '/dev/tokens', '{"player": "alice"}'],
  ['GET', '/.well-known/jwks.json', undefined],
  ['POST', '/dev/rebuild-projections', undefined],
] as const;

describe('with the development issuer', () => {
  let runtime: Runtime;
  let port: string;
  beforeAll(async () => {
    runtime = await startLocal({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
    port = new URL(runtime.url).port;
  });
  afterAll(() => runtime?.stop());

  it('its own routes answer requests sent to 127.0.0.1, localhost or [::1] at its port, with its own Origin or none', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      for (const origin of [undefined, `http://${host}`]) {
        const headers = { host, ...(origin ? { origin } : {}) };
        const [tokens, jwks, rebuilt] = await Promise.all(
          OWN.map(([method, path, body]) => ask(runtime, method, path, headers, body)),
        );
        expect(tokens!.status, `${host} ${origin}`).toBe(200);
        expect(typeof tokens!.body.token).toBe('string');
        expect(jwks!.body.keys).toHaveLength(1);
        expect(rebuilt!.status).toBe(200);
        // Kept by no cache (a sign-in token), and read as the type they say, as the API's answers.
        for (const answer of [tokens!, jwks!, rebuilt!]) {
          expect([answer.cache, answer.sniff]).toEqual(['no-store', 'nosniff']);
        }
      }
    }
  });

  it('they are 404 problem+json to a request addressed by another name (DNS rebinding) or at another port', async () => {
    for (const host of [
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      '127.0.0.1',
    ]) {
      for (const [method, path, body] of OWN) {
        const answer = await ask(runtime, method, path, { host }, body);
        expect(answer.status, `${method} ${path} with Host ${host}`).toBe(404);
        expect(answer.type).toMatch(/^application\/problem\+json/);
        expect(answer.body).toMatchObject({ type: '/problems/not-found', status: 404 });
        expect(JSON.stringify(answer.body)).not.toMatch(/"token"|"keys"|"games"/);
      }
    }
  });

  it("they are 404 to a request carrying another site's Origin (a cross-site POST), or a null one", async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of ['http://evil.example', `http://localhost:${port}`, `https://${host}`, 'null']) {
      for (const [method, path, body] of OWN) {
        const answer = await ask(runtime, method, path, { host, origin }, body);
        expect(answer.status, `${method} ${path} from ${origin}`).toBe(404);
        expect(answer.body.type).toBe('/problems/not-found');
      }
    }
    // The API itself is not theirs: it answers whatever the Host and Origin (as in AWS).
    const created = await ask(
      runtime,
      'POST',
      '/games',
      { host: 'evil.example', origin: 'http://evil.example' },
      '{}',
    );
    expect(created.status).toBe(201);
  });

  it('they are 404 to a request with no Host, two of them, two Origins, or a target naming another host (absolute, or a path from //)', async () => {
    const host = `127.0.0.1:${port}`;
    const body = '{"player":"mallory"}';
    const post = (target: string, version: string, headers: string[]) =>
      answerTo(
        `POST ${target} HTTP/${version}\r\n${headers.map((h) => `${h}\r\n`).join('')}` +
          `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    const status = (head: string) => head.split(' ')[1];
    // The same request, addressed as it must be, mints a token: the refusals below are the headers'.
    expect(status((await post('/dev/tokens', '1.1', [`host: ${host}`])).head)).toBe('200');
    const refused = [
      post('/dev/tokens', '1.0', []),
      post('/dev/tokens', '1.1', [`host: ${host}`, 'host: evil.example']),
      post('/dev/tokens', '1.1', [`host: ${host}`, `origin: http://${host}`, 'origin: http://evil.example']),
      post('http://evil.example/dev/tokens', '1.1', [`host: ${host}`]),
      // A path, not a host: read against a base it would lose its first segment and be /dev/tokens.
      post('//evil.example/dev/tokens', '1.1', [`host: ${host}`]),
    ];
    for (const answer of await Promise.all(refused)) expect(status(answer.head), answer.head).toBe('404');
  });

  it('routes the path as sent, as API Gateway does: //x/openapi.json and /x/%2e%2e/openapi.json are no route (404), /openapi.json is', async () => {
    expect((await ask(runtime, 'GET', '/openapi.json')).status).toBe(200);
    for (const path of [
      '//x/openapi.json',
      '//openapi.json',
      '/x/%2e%2e/openapi.json',
      '/x/../openapi.json',
    ]) {
      const answer = await ask(runtime, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.detail, path).toBe(`No route GET ${path}. See /openapi.json.`);
    }
  });

  /**
   * What the runtime answers to a request cut short (`partial`, raw), once it closes the connection:
   * its head and body. Without an answer the request would be held for Node's 300 s: 5 s is a failure.
   */
  const answerTo = (partial: string) =>
    new Promise<{ head: string; body: string }>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('close', () => {
        const [head = '', body = ''] = text.split('\r\n\r\n');
        resolve({ head, body });
      });
      socket.on('error', reject);
      socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer within 5 s: ${text}`)));
      socket.write(partial);
    });

  it('headers over what Node reads are 400 problem+json that says so', async () => {
    const { head, body } = await answerTo(
      `GET /openapi.json HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'x'.repeat(20_000)}\r\n\r\n`,
    );
    expect(head.split(' ')[1]).toBe('400');
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(body).detail).toBe(
      "The request's target and headers are over 16 KiB, more than this server reads.",
    );
  });

  it('a body still arriving after its time is 408 problem+json, and the connection is closed', async () => {
    const { head, body } = await answerTo(
      `POST /games HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 20\r\n\r\n{"se`,
    );
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
    expect(JSON.parse(body)).toMatchObject({ type: '/problems/request-timeout', status: 408 });
  });

  it('headers still arriving after their time are 408 problem+json too, and the connection is closed', async () => {
    const { head, body } = await answerTo(
      `GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: appl`,
    );
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
    expect(JSON.parse(body)).toMatchObject({
      type: '/problems/request-timeout',
      status: 408,
      detail: "The request's headers were still arriving after 0.5 s.",
    });
  });
});

describe('a request addressed here', () => {
  const request = (remoteAddress: string, host = '127.0.0.1:3000') =>
    ({
      headers: { host },
      rawHeaders: ['Host', host],
      url: '/dev/tokens',
      socket: { remoteAddress },
    }) as unknown as IncomingMessage;

  it('comes from this machine: bound to every network (--host 0.0.0.0), a forged Host from another is refused', () => {
    for (const address of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'])
      expect(addressedHere(request(address), 3000), address).toBe(true);
    for (const address of ['192.168.1.7', '10.0.0.2', '::ffff:192.168.1.7', 'fe80::1', ''])
      expect(addressedHere(request(address), 3000), address).toBe(false);
  });
});

describe('the embedded store and its proxy', () => {
  it("answer this machine's runtime, and refuse a page elsewhere (dynalite would allow any origin) and a rebound name", async () => {
    const store = await startLocalStore();
    const proxy = await startStoreProxy(store.endpoint, []);
    try {
      for (const endpoint of [store.endpoint, proxy.endpoint]) {
        const list = (headers: Record<string, string>) =>
          fetch(endpoint, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-amz-json-1.0',
              'x-amz-target': 'DynamoDB_20120810.ListTables',
              authorization:
                'AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
              'x-amz-date': '20260101T000000Z',
              ...headers,
            },
            body: '{}',
          });
        // As the SDK sends it: answered.
        expect((await list({})).status, endpoint).toBe(200);
        // As a page elsewhere sends it (its preflight too): refused before the store reads it.
        expect((await list({ origin: 'https://elsewhere.example' })).status, endpoint).toBe(403);
        const preflight = await fetch(endpoint, {
          method: 'OPTIONS',
          headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
        });
        expect(preflight.status, endpoint).toBe(403);
        expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      }
      // A name that is not this machine's (DNS rebinding).
      const port = new URL(store.endpoint).port;
      expect(
        await new Promise<number>((done, fail) =>
          httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/',
              headers: { host: `rebound.example:${port}` },
            },
            (answer) => done(answer.statusCode!),
          )
            .on('error', fail)
            .end('{}'),
        ),
      ).toBe(403);
    } finally {
      await proxy.close();
      await store.close();
    }
  });
});

describe('with another issuer trusted (OIDC_ISSUER)', () => {
  let runtime: Runtime;
  const given = { issuer: process.env[OIDC_ISSUER_ENV], audience: process.env[OIDC_AUDIENCE_ENV] };
  beforeAll(async () => {
    process.env[OIDC_ISSUER_ENV] = 'https://id.example';
    process.env[OIDC_AUDIENCE_ENV] = 'klondike-test';
    runtime = await startLocal();
  });
  afterAll(async () => {
    await runtime?.stop();
    for (const [name, value] of [
      [OIDC_ISSUER_ENV, given.issuer],
      [OIDC_AUDIENCE_ENV, given.audience],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("has none of the development issuer's routes: /dev/tokens and the JWKS are 404, as in AWS", async () => {
    for (const [method, path, body] of OWN.slice(0, 2)) {
      const answer = await ask(runtime, method, path, {}, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.type).toBe('/problems/not-found');
    }
  });

  it('still rebuilds its read models (npm run rebuild-projections), for requests addressed here only', async () => {
    const rebuilt = await ask(runtime, 'POST', '/dev/rebuild-projections');
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body).toEqual(expect.any(Object));
    const port = new URL(runtime.url).port;
    const elsewhere = await ask(runtime, 'POST', '/dev/rebuild-projections', {
      host: `evil.example:${port}`,
    });
    expect(elsewhere.status).toBe(404);
  });
});

describe('bound to another address (--host 127.0.0.2)', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await startLocal({ host: '127.0.0.2' });
  });
  afterAll(() => runtime?.stop());

  it("verifies its development issuer's tokens all the same (the functions hold its keys), and refuses others with 401", async () => {
    expect(runtime.url).toMatch(/^http:\/\/127\.0\.0\.2:/);
    const jwt = await runtime.issuer!.tokenFor('alice');
    const created = await fetch(`${runtime.url}/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const [header, payload] = jwt.split('.');
    const forged = await fetch(`${runtime.url}/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${header}.${payload}.AAAA` },
      body: '{}',
    });
    expect(forged.status).toBe(401);
  });
});
