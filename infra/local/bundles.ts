/**
 * The code of the local route containers (./containers.ts), as Lambda loads a function's: each
 * container's routes bundled by esbuild with the stack's options (../bundling.ts) into one ES module
 * that a plain Node loads, without tsx. A process so started is ready in a fifth of the CPU that
 * loading the sources through tsx takes (a thread, in a third), which is most of the cost of a
 * start with `--isolated`.
 *
 * Bundles are kept in node_modules/.cache/klondike-routes (./build-cache.ts), named by what they
 * are built from (the entry, the options, esbuild's version): a start on unchanged sources bundles
 * nothing, and one after an edit bundles only what the edit touches.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { handlerEntry, ROUTES, routeNamed } from '../../functions/routes.js';
import { ESBUILD_OPTIONS, PROJECT_ROOT } from '../bundling.js';
import { builtWhole, CACHE_DIR, type Inputs, inputsOf, place, unchanged } from './build-cache.js';

const CACHE = join(CACHE_DIR, 'klondike-routes');
const HOST = join(PROJECT_ROOT, 'infra', 'local', 'route-host.ts');

/**
 * The entry of a container hosting `routes`: the route host and each route's handler, imported by
 * the entries the stack bundles. A name that is no route is passed on for the host to refuse (it
 * exits before it is ready, as a Lambda function whose code cannot load).
 */
function entryOf(routes: readonly string[]): string {
  const known = routes.filter((name) => ROUTES.some((route) => route.name === name));
  return [
    `import { hostRoutes } from ${JSON.stringify(HOST)};`,
    ...known.map(
      (name, i) =>
        `import { handler as h${i} } from ${JSON.stringify(resolve(PROJECT_ROOT, handlerEntry(routeNamed(name))))};`,
    ),
    `hostRoutes(${JSON.stringify(routes)}, new Map([${known.map((name, i) => `[${JSON.stringify(name)}, h${i}]`).join(', ')}]));`,
  ].join('\n');
}

const built = new Map<string, Promise<string>>();

/**
 * The paths of the bundles of containers hosting each of `routeSets`: from the cache, else built
 * now, together (one esbuild build reads a file shared by several bundles once).
 */
export function containerBundles(routeSets: readonly (readonly string[])[]): Promise<string[]> {
  const wanted = [...new Set(routeSets.map((routes) => JSON.stringify(routes)))];
  const missing = wanted.filter((key) => !built.has(key));
  if (missing.length > 0) {
    const bundles = bundlesOf(missing.map((key) => entryOf(JSON.parse(key) as string[])));
    missing.forEach((key, i) => {
      const bundle = bundles.then((files) => files[i]!);
      // A failed build is tried again by the next container that needs it.
      bundle.catch(() => built.delete(key));
      built.set(key, bundle);
    });
  }
  return Promise.all(routeSets.map((routes) => built.get(JSON.stringify(routes))!));
}

/** The path of the bundle of a container hosting `routes`: from the cache, else built now. */
export const containerBundle = async (routes: readonly string[]): Promise<string> =>
  (await containerBundles([routes]))[0]!;

const ENTRY = 'klondike-container';

/**
 * esbuild's version, from its package.json: loading esbuild itself costs a start that bundles
 * nothing about a fifth of a second of CPU, so it is loaded only to build.
 */
const esbuildVersion = (): string =>
  (
    JSON.parse(readFileSync(createRequire(import.meta.url).resolve('esbuild/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

async function bundlesOf(entries: readonly string[]): Promise<string[]> {
  const version = esbuildVersion();
  const names = entries.map((entry) =>
    createHash('sha256')
      .update(JSON.stringify([version, ESBUILD_OPTIONS, entry]))
      .digest('hex')
      .slice(0, 24),
  );
  const files = names.map((name) => join(CACHE, `${name}.mjs`));
  const record = (name: string) => join(CACHE, `${name}.json`);
  const stale = names.filter((name) => {
    try {
      return !unchanged(JSON.parse(readFileSync(record(name), 'utf8')) as Inputs);
    } catch {
      // Not built yet, or its record unreadable.
      return true;
    }
  });
  if (stale.length === 0) return files;
  const esbuild = await import('esbuild');
  const started = Date.now();
  const result = await esbuild.build({
    ...ESBUILD_OPTIONS,
    // Readable stack traces and a quicker build: the minified bundle is the stack's to test.
    minify: false,
    entryPoints: Object.fromEntries(stale.map((name) => [name, `${ENTRY}:${name}`])),
    outdir: CACHE,
    outExtension: { '.js': '.mjs' },
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: PROJECT_ROOT,
    plugins: [
      {
        name: ENTRY,
        setup(build) {
          build.onResolve({ filter: new RegExp(`^${ENTRY}:`) }, ({ path }) => ({ path, namespace: ENTRY }));
          build.onLoad({ filter: /.*/, namespace: ENTRY }, ({ path }) => ({
            contents: entries[names.indexOf(path.slice(ENTRY.length + 1))]!,
            resolveDir: PROJECT_ROOT,
            loader: 'js',
          }));
        },
      },
    ],
  });
  mkdirSync(CACHE, { recursive: true });
  // The maps before the code that names them, and a bundle's record (what says it is there) last.
  const outputs = [...result.outputFiles].sort(
    (a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')),
  );
  for (const output of outputs) place(output.path, output.contents);
  for (const name of stale) {
    const output = result.metafile.outputs[relative(PROJECT_ROOT, join(CACHE, `${name}.mjs`))]!;
    const inputs = inputsOf(
      Object.keys(output.inputs)
        .filter((input) => !input.startsWith(`${ENTRY}:`))
        .map((input) => resolve(PROJECT_ROOT, input)),
    );
    if (builtWhole(inputs, started)) place(record(name), JSON.stringify(inputs));
  }
  return files;
}
