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
});
