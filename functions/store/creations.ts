import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { GameEvent } from '../../domain/index.js';
import { tableName } from './client.js';
import type { Identity } from './events.js';
import { getByKey, putIfAbsent } from './table.js';

/**
 * A game created under an Idempotency-Key. Its record lives beside the log under
 * `pk = idem#<sha256(m)>` and holds what is needed to answer the retry exactly as the first time:
 * the game id, the request's fingerprint, the deal, and the token encrypted with a key derived from
 * m (AES-256-GCM), where m is the Idempotency-Key keyed with the service's creation secret
 * (HMAC-SHA256, `CREATION_SECRET`). The table never holds the token or the Idempotency-Key in clear,
 * and without the secret a copy of it cannot even test a guess of a short key: only someone who
 * sends the key again to the service can recover the token.
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

/** The environment variable that holds the service's creation secret (docs/operations.md). */
export const CREATION_SECRET_ENV = 'CREATION_SECRET';

/** A creation key keyed with the service's secret: what its record's key and its seal come from. */
function keyed(key: string): Buffer {
  const secret = process.env[CREATION_SECRET_ENV];
  if (!secret)
    throw new Error(`${CREATION_SECRET_ENV} is not set: a creation under an Idempotency-Key needs it`);
  return createHmac('sha256', secret).update(key, 'utf8').digest();
}

const recordKey = (material: Buffer) => `idem#${createHash('sha256').update(material).digest('base64url')}`;

function cipherKey(material: Buffer, pk: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, 'klondike-creation-token', pk, 32));
}

function seal(token: string, material: Buffer, pk: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(material, pk), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function open(sealed: string, material: Buffer, pk: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(material, pk), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** The creation recorded under this key (from `creationKey`), if any. */
export async function findCreation(key: string): Promise<Creation | undefined> {
  const material = keyed(key);
  const pk = recordKey(material);
  const item = await getByKey(tableName(), { pk, sk: 0 });
  if (!item) return undefined;
  return {
    gameId: item.gameId as string,
    fingerprint: item.fp as string,
    dealt: item.dealt as GameEvent,
    token: open(item.sealedToken as string, material, pk),
    tokenHash: item.tokenHash as string,
    ...(item.owner ? { owner: item.owner as string } : {}),
    createdAt: item.at as string,
  };
}

/** Records a creation under its key (from `creationKey`); false if the key was taken first (then read it back). */
export async function recordCreation(key: string, creation: Creation): Promise<boolean> {
  const material = keyed(key);
  const pk = recordKey(material);
  return putIfAbsent(tableName(), {
    pk,
    sk: 0,
    gameId: creation.gameId,
    fp: creation.fingerprint,
    dealt: creation.dealt,
    sealedToken: seal(creation.token, material, pk),
    tokenHash: creation.tokenHash,
    ...(creation.owner ? { owner: creation.owner } : {}),
    at: creation.createdAt,
  });
}
