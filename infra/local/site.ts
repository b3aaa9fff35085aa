/**
 * The web client in the local runtime: `npm start` builds it with Vite (from client/web, into
 * client/web/dist) and serves the files at `/` beside the API, as CloudFront does in AWS.
 * Only the files of the build are served, held in memory: no path reaches the disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheControlOf, SITE_HEADERS } from '../site-headers.js';

const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'client', 'web');
export const WEB_CONFIG = join(WEB_DIR, 'vite.config.ts');
export const DEFAULT_SITE_DIR = join(WEB_DIR, 'dist');

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

/** Builds the web client with Vite's own API (Vite is a dev dependency, there after `npm install`). */
export async function buildSite(outDir: string = DEFAULT_SITE_DIR): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: WEB_CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
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
  const file = site.get(new URL(request.url ?? '/', 'http://localhost').pathname);
  if (!file) return false;
  response.writeHead(200, { ...headers, ...file.headers, 'content-length': file.body.length });
  response.end(request.method === 'HEAD' ? undefined : file.body);
  return true;
}
