/**
 * What the local runtime builds at start (the route containers' bundles, ./bundles.ts; the web
 * client, ./site.ts) is kept in node_modules/.cache with the size and modification time of every
 * file that went into it and of the folders those files are in. A build is used again only while
 * all of those are unchanged: a file edited, added or removed beside an input is a rebuild. So a
 * start on unchanged sources builds nothing, and the code it runs is always that of the sources.
 * Several processes may build at once: each writes files of its own and renames them into place,
 * so a build is read whole or not at all.
 */
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../bundling.js';

export const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache');

/** What a build was made from: each input file's and each input folder's [size, mtimeMs]. */
export interface Inputs {
  readonly files: Record<string, [number, number]>;
  readonly dirs: Record<string, [number, number]>;
}

const stamp = (path: string): [number, number] | undefined => {
  try {
    const stats = statSync(path);
    return [stats.size, stats.mtimeMs];
  } catch {
    return undefined;
  }
};

/** The stamps of `files` and of the folders they are in, as a build's record keeps them. */
export function inputsOf(files: readonly string[]): Inputs {
  const stamps = (paths: readonly string[]) =>
    Object.fromEntries(paths.map((path): [string, [number, number]] => [path, stamp(path) ?? [-1, -1]]));
  return { files: stamps(files), dirs: stamps([...new Set(files.map((file) => dirname(file)))]) };
}

/** Whether every file and folder recorded is still there, of the same size and time. */
export function unchanged(inputs: Inputs): boolean {
  return [...Object.entries(inputs.files), ...Object.entries(inputs.dirs)].every(([path, [size, mtime]]) => {
    const now = stamp(path);
    return now !== undefined && now[0] === size && now[1] === mtime;
  });
}

/**
 * Whether a build that began at `started` may be recorded: an input edited while it was built may
 * not be in the build, which is then made again next time.
 */
export const builtWhole = (inputs: Inputs, started: number): boolean =>
  Object.values(inputs.files).every(([, mtime]) => mtime < started);

/** A unique name beside `path`, for this process's own copy before it is renamed into place. */
export const ownName = (path: string): string =>
  `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;

/** Writes `path` whole: under a name of this process's, then renamed (with `mode`, if given, from the start). */
export function place(path: string, contents: string | Uint8Array, mode?: number): void {
  const own = ownName(path);
  writeFileSync(own, contents, mode === undefined ? {} : { mode });
  renameSync(own, path);
}
