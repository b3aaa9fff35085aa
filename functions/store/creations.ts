import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { GameEvent } from '../../domain/index.js';
import { tableName } from './client.js';
import type { Identity } from './events.js';
import { getByKey, putIfAbsent } from './table.js';

/**
 * A game created under an Idempotency-Key. Its record lives beside the log under
 * `pk = idem#<sha256(key)>` and holds what is needed to answer the retry exactly as the first time:
 * the game id, the request's fingerprint, the deal, and the token encrypted with a key derived from
 * the Idempotency-Key itself (AES-256-GCM). The table never holds the token or the Idempotency-Key
 * in clear: only someone who sends the key again can recover the token.
 */
export interface Creation extends Identity {
  readonly gameId: string;
  readonly fingerprint: string;
  readonly dealt: GameEvent;
  readonly token: string;
}

/**
 * A creation key as the table knows it: an anonymous caller's key is global (so it must be long
 * enough not to be guessed); a signed-in player's is that player's own, so another player's same key
 * is another request.
 */
export const creationKey = (key: string, player?: string): string =>
  player === undefined ? key : `player\n${player}\n${key}`;

const recordKey = (key: string) => `idem#${createHash('sha256').update(key).digest('base64url')}`;

function cipherKey(key: string, pk: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, 'klondike-creation-token', pk, 32));
}

function seal(token: string, key: string, pk: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(key, pk), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function open(sealed: string, key: string, pk: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(key, pk), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** The creation recorded under this key (from `creationKey`), if any. */
export async function findCreation(key: string): Promise<Creation | undefined> {
  const pk = recordKey(key);
  const item = await getByKey(tableName(), { pk, sk: 0 });
  if (!item) return undefined;
  return {
    gameId: item.gameId as string,
    fingerprint: item.fp as string,
    dealt: item.dealt as GameEvent,
    token: open(item.sealedToken as string, key, pk),
    tokenHash: item.tokenHash as string,
    ...(item.owner ? { owner: item.owner as string } : {}),
    createdAt: item.at as string,
  };
}

/** Records a creation under its key (from `creationKey`); false if the key was taken first (then read it back). */
export async function recordCreation(key: string, creation: Creation): Promise<boolean> {
  const pk = recordKey(key);
  return putIfAbsent(tableName(), {
    pk,
    sk: 0,
    gameId: creation.gameId,
    fp: creation.fingerprint,
    dealt: creation.dealt,
    sealedToken: seal(creation.token, key, pk),
    tokenHash: creation.tokenHash,
    ...(creation.owner ? { owner: creation.owner } : {}),
    at: creation.createdAt,
  });
}
