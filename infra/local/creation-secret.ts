import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CREATION_SECRET_ENV } from '../../functions/store/creations.js';
import { place } from './build-cache.js';

/** The file of a `--data` folder that keeps the service's creation secret. */
export const CREATION_SECRET_FILE = 'creation-secret';

/** What the runtime writes (43 base64url characters); anything else in the file is no secret of its own. */
const MADE_HERE = /^[\w-]{43}$/;
/** The fewest characters a secret given in the environment may have. */
const SHORTEST = 32;

/**
 * The creation secret the environment gives, if any (empty is unset); one too short to be a secret
 * is refused (the runtime asks before it starts anything).
 */
export function givenSecret(): string | undefined {
  const given = process.env[CREATION_SECRET_ENV];
  if (given === undefined || given === '') return undefined;
  if (given.trim().length < SHORTEST) {
    throw new Error(
      `${CREATION_SECRET_ENV} must be at least ${SHORTEST} characters (a random string, such as 32 bytes in base64): it keys the records of games created under an Idempotency-Key.`,
    );
  }
  return given;
}

/**
 * The secret that keys the records of creations under an Idempotency-Key (functions/store/creations.ts):
 * the environment's `CREATION_SECRET` when set; else the one kept in the `--data` folder, made at its
 * first start and readable by its owner only, so that a keyed creation's retry after a restart is
 * answered as the first time was; without a folder, one for this run (the games die with it too).
 */
export function creationSecret(dataDir: string | undefined): string {
  const given = givenSecret();
  if (given !== undefined) return given;
  const file = dataDir === undefined ? undefined : join(dataDir, CREATION_SECRET_FILE);
  if (file) {
    let kept: string | undefined;
    try {
      kept = readFileSync(file, 'utf8').trim();
    } catch {
      // None kept yet: a new one, kept below.
    }
    if (kept !== undefined && MADE_HERE.test(kept)) {
      // Its owner's alone, whoever made it otherwise.
      if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
      return kept;
    }
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
