import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREATION_SECRET_ENV } from '../../functions/store/creations.js';
import { place } from './build-cache.js';

/** The file of a `--data` folder that keeps the service's creation secret. */
export const CREATION_SECRET_FILE = 'creation-secret';

/** Fewer characters than this is no secret the runtime made (it writes 43). */
const SHORTEST = 32;

/**
 * The secret that keys the records of creations under an Idempotency-Key (functions/store/creations.ts):
 * the environment's `CREATION_SECRET` when set; else the one kept in the `--data` folder, made at its
 * first start and readable by its owner only, so that a keyed creation's retry after a restart is
 * answered as the first time was; without a folder, one for this run (the games die with it too).
 */
export function creationSecret(dataDir: string | undefined): string {
  const given = process.env[CREATION_SECRET_ENV];
  if (given) return given;
  const file = dataDir === undefined ? undefined : join(dataDir, CREATION_SECRET_FILE);
  if (file) {
    let kept: string | undefined;
    try {
      kept = readFileSync(file, 'utf8').trim();
    } catch {
      // None kept yet: a new one, kept below.
    }
    if (kept !== undefined && kept.length >= SHORTEST) return kept;
    if (kept !== undefined) {
      console.error(
        `The creation secret file ${file} holds no usable secret: a new one replaces it, and a retry of a game created under an Idempotency-Key before now deals a new game.`,
      );
    }
  }
  const made = randomBytes(32).toString('base64url');
  if (file) place(file, made, 0o600);
  return made;
}
