/**
 * The web client in the local runtime: `npm start` builds it with Vite (from client/web, into
 * node_modules/.cache) and serves the files at `/` beside the API, as CloudFront does in AWS.
 * Only the files of the build are served, held in memory: no path reaches the disk.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheControlOf, SITE_HEADERS } from '../site-headers.js';
import { builtWhole, CACHE_DIR, type Inputs, inputsOf, ownName, place, unchanged } from './build-cache.js';
import { requestPath } from './target.js';

const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'client', 'web');
export const WEB_CONFIG = join(WEB_DIR, 'vite.config.ts');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

interface File {
  readonly body: Buffer;
  readonly headers: Record<string, string>;
}

/** The built site: URL path to file. */
export type Site = ReadonlyMap<string, File>;

const CACHE = join(CACHE_DIR, 'klondike-site');
const RECORD = join(CACHE, 'record.json');

/** The last build kept: what it was made from, and the folder holding its files. */
interface Kept {
  /** The web client's folder: another checkout sharing this node_modules (a linked worktree) keeps its own. */
  readonly web: string;
  readonly vite: string;
  readonly inputs: Inputs;
  readonly dir: string;
}

/**
 * The web client's build, held in memory: built with Vite's own API (Vite is a dev dependency, there
 * after `npm install`) into a folder of the cache of this process's own, or the last build read
 * while every file it was made from is unchanged (./build-cache.ts): a start on unchanged sources
 * spends no second on the build. Nothing is written outside the cache, so several starts at once
 * never read each other's half-written files.
 */
export async function loadBuiltSite(): Promise<Site> {
  const vite = (
    JSON.parse(readFileSync(join(WEB_DIR, '..', '..', 'node_modules', 'vite', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  try {
    const kept = JSON.parse(readFileSync(RECORD, 'utf8')) as Kept;
    if (kept.web === WEB_DIR && kept.vite === vite && unchanged(kept.inputs)) return loadSite(kept.dir);
  } catch {
    // Nothing kept, or a newer build replaced it while it was read: built below.
  }
  const { build } = await import('vite');
  const read = new Set<string>();
  const started = Date.now();
  mkdirSync(CACHE, { recursive: true });
  const dir = ownName(join(CACHE, 'build'));
  await build({
    configFile: WEB_CONFIG,
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true },
    plugins: [
      {
        name: 'klondike-build-inputs',
        configResolved: (config) => {
          for (const file of config.configFileDependencies) read.add(resolve(file));
        },
        generateBundle() {
          for (const id of this.getModuleIds()) read.add(id.split('?')[0]!);
        },
      },
    ],
  });
  const site = loadSite(dir);
  // What Vite read from disk (not its virtual modules) made the build.
  const inputs = inputsOf([...read].filter((file) => isAbsolute(file) && existsSync(file)));
  if (builtWhole(inputs, started)) keep({ web: WEB_DIR, vite, inputs, dir });
  else rmSync(dir, { recursive: true, force: true });
  return site;
}

/** Records the build in `made.dir` as the one kept, then removes the build it replaces. */
function keep(made: Kept): void {
  let replaced: string | undefined;
  try {
    replaced = (JSON.parse(readFileSync(RECORD, 'utf8')) as Kept).dir;
  } catch {}
  place(RECORD, JSON.stringify(made));
  if (replaced && replaced !== made.dir) rmSync(replaced, { recursive: true, force: true });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Reads a build into memory; `/` is its index.html. */
export function loadSite(dir: string): Site {
  const site = new Map<string, File>();
  for (const file of filesUnder(dir)) {
    const path = `/${relative(dir, file).split(sep).join('/')}`;
    const entry = {
      body: readFileSync(file),
      headers: {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': cacheControlOf(path),
      },
    };
    site.set(path, entry);
    if (path === '/index.html') site.set('/', entry);
  }
  return site;
}

/**
 * Answers a GET or HEAD for a file of the site, with the page's security headers (whose CSP
 * depends on where the page signs in); false when the request is not for one.
 */
export function serveSite(
  site: Site,
  request: IncomingMessage,
  response: ServerResponse,
  headers: Readonly<Record<string, string>> = SITE_HEADERS,
): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const file = site.get(requestPath(request));
  if (!file) return false;
  response.writeHead(200, { ...headers, ...file.headers, 'content-length': file.body.length });
  response.end(request.method === 'HEAD' ? undefined : file.body);
  return true;
}
