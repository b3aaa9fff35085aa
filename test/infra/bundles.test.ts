import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputsOf, unchanged } from '../../infra/local/build-cache.js';
import { containerBundle } from '../../infra/local/bundles.js';

// Made when the tests run, not when the file is only listed (vitest list).
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'klondike-bundles-'));
});
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('a build kept in the cache', () => {
  it('is used again only while every input and every folder beside one is as it was', () => {
    const file = join(dir, 'input.ts');
    writeFileSync(file, 'export const a = 1;');
    const inputs = inputsOf([file]);
    expect(unchanged(inputs)).toBe(true);
    // Edited, at the same size: its time differs.
    writeFileSync(file, 'export const a = 2;');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(unchanged(inputs)).toBe(false);
    const edited = inputsOf([file]);
    expect(unchanged(edited)).toBe(true);
    // A file added beside an input (it could change how an import resolves).
    writeFileSync(join(dir, 'input.js'), '');
    utimesSync(dir, new Date(), new Date(Date.now() + 10_000));
    expect(unchanged(edited)).toBe(false);
    const beside = inputsOf([file]);
    rmSync(file);
    expect(unchanged(beside)).toBe(false);
  });
});

describe("a route container's bundle", () => {
  it("is one ES module that a plain Node loads, with the routes' handlers and a source map beside it", async () => {
    const bundle = await containerBundle(['openapi']);
    expect(await containerBundle(['openapi'])).toBe(bundle);
    expect(readFileSync(bundle, 'utf8')).toMatch(/\/\/# sourceMappingURL=[0-9a-f]+\.mjs\.map\s*$/);
    expect(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')).sources).toContainEqual(
      expect.stringMatching(/functions\/handlers\/openapi\.ts$/),
    );
    // Started without tsx or a parent to answer, the host says it is ready and waits for invocations.
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `process.send = (m) => { console.log(JSON.stringify(m)); process.exit(0); }; await import(${JSON.stringify(bundle)});`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('{"ready":true}');
  });
});
