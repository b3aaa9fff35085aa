import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_URL } from '../../client/api.js';
import { banner } from '../../infra/local/banner.js';

describe('the start banner', () => {
  it('on the default port: the terminal client needs no --url; games in memory say how to keep them', () => {
    expect(banner({ url: DEFAULT_URL, data: { kind: 'memory' }, webBuildMs: 640 }).join('\n')).toBe(
      [
        'Klondike is serving on http://127.0.0.1:3000',
        '  Web client  http://127.0.0.1:3000/  (built in 640 ms)',
        '  Terminal    npm run play',
        `  API         curl -s -X POST http://127.0.0.1:3000/games -d '{"seed": 1}'`,
        '              every route: http://127.0.0.1:3000/openapi.json',
        '  Data        in memory: gone when this stops (keep games with npm start -- --data .data)',
        'Ctrl-C stops it.',
      ].join('\n'),
    );
  });

  it('names a data folder by its full path, an outside store by table and endpoint, and --isolated', () => {
    const folder = banner({
      url: 'http://127.0.0.1:4000',
      data: { kind: 'folder', dir: '.data' },
      webBuildMs: 1,
    });
    expect(folder).toContain(
      `  Data        in ${resolve('.data')}: kept across restarts (one runtime a folder)`,
    );
    expect(folder).toContain('  Terminal    npm run play -- --url http://127.0.0.1:4000');
    const outside = banner({
      url: 'http://127.0.0.1:4000',
      data: { kind: 'external', where: 'table games at http://127.0.0.1:8000' },
      webBuildMs: 1,
      isolated: true,
    });
    expect(outside[0]).toBe('Klondike is serving on http://127.0.0.1:4000  (each route in its own process)');
    expect(outside).toContain('  Data        table games at http://127.0.0.1:8000');
    expect(outside.join('\n')).not.toContain('Sign in');
  });

  it('says how to sign in: a development token, or where tokens come from', () => {
    const facts = { url: DEFAULT_URL, data: { kind: 'memory' }, webBuildMs: 1 } as const;
    expect(banner({ ...facts, signIn: { kind: 'dev' } }).slice(5, 7)).toEqual([
      `  Sign in     curl -s -X POST http://127.0.0.1:3000/dev/tokens -d '{"player": "alice"}'`,
      `              then: curl -s -X POST http://127.0.0.1:3000/games -H 'Authorization: Bearer <the token>' -d '{}'`,
    ]);
    expect(banner({ ...facts, signIn: { kind: 'issuer', issuer: 'https://id.example' } })[5]).toBe(
      '  Sign in     with a token from https://id.example',
    );
  });

  it("bound beyond loopback (--host), says who can reach it, and that the /dev routes stay this machine's", () => {
    const facts = {
      url: DEFAULT_URL,
      data: { kind: 'memory' },
      webBuildMs: 1,
      signIn: { kind: 'dev' },
    } as const;
    const everywhere = banner({
      ...facts,
      exposure: { host: '0.0.0.0', addresses: ['192.168.1.7', '10.0.0.2'] },
    });
    expect(everywhere.slice(7, 9)).toEqual([
      "  Reach       bound to 0.0.0.0: anyone on this machine's networks can play, at http://192.168.1.7:3000, http://10.0.0.2:3000",
      '              /dev routes (sign-in tokens) answer only this machine, at http://127.0.0.1:3000',
    ]);
    const ipv6 = banner({ ...facts, exposure: { host: '::', addresses: ['fd00::7'] } });
    expect(ipv6[7]).toContain('at http://[fd00::7]:3000');
    const one = banner({
      ...facts,
      url: 'http://192.168.1.7:3000',
      exposure: { host: '192.168.1.7', addresses: [] },
    });
    expect(one.slice(5, 8)).toEqual([
      '  Sign in     none: the development issuer answers only at loopback (bind 0.0.0.0 for both)',
      '  Reach       bound to 192.168.1.7: anyone who can reach that address can play, at http://192.168.1.7:3000',
      '              /dev routes answer only at 127.0.0.1, localhost or [::1], where it is not bound',
    ]);
    // On loopback, nothing of the kind.
    expect(banner(facts).join('\n')).not.toContain('Reach');
  });
});
