import { createHash } from 'node:crypto';
import { tableName } from './client.js';
import type { Keyed, Loaded } from './events.js';
import { getByKey, putIfAbsent } from './table.js';

/**
 * The first answer given under an Idempotency-Key on a game. A write that appended events is
 * remembered by its events (each carries the key; snapshots keep the recent keys). An answer that
 * appended nothing (an autoplay with nothing to play, a refusal) is kept in a record beside the
 * log, `pk = answer#<sha256(game id, key)>`: the key itself is never stored in clear there. Like
 * the snapshots, these records are a cache: without them a retry would be decided afresh.
 */
export interface FirstAnswer {
  readonly fingerprint: string;
  /** The game's version in that answer. */
  readonly version: number;
  /** A refusal's problem details, as the HTTP layer gave them (absent for a view). */
  readonly refusal?: Readonly<Record<string, unknown>>;
}

const recordKey = (gameId: string, key: string) =>
  `answer#${createHash('sha256').update(`${gameId}\n${key}`).digest('base64url')}`;

const fromRecord = (item: Record<string, unknown>): FirstAnswer => ({
  fingerprint: item.fp as string,
  version: item.version as number,
  ...(item.refusal ? { refusal: item.refusal as Record<string, unknown> } : {}),
});

/** The first answer to `key` on this game: from the loaded keys, else from a record beside the log. */
export async function firstAnswer(
  gameId: string,
  loaded: Loaded,
  key: Keyed,
): Promise<FirstAnswer | undefined> {
  const appended = loaded.keys.get(key.key);
  if (appended) return appended;
  const item = await getByKey(tableName(), { pk: recordKey(gameId, key.key), sk: 0 });
  return item && fromRecord(item);
}

/**
 * Keeps an answer that appended nothing as the first answer to `key`. If a racing twin kept one
 * first, that one stands and is returned instead.
 */
export async function keepAnswer(gameId: string, key: Keyed, answer: FirstAnswer): Promise<FirstAnswer> {
  const pk = recordKey(gameId, key.key);
  const kept = await putIfAbsent(tableName(), {
    pk,
    sk: 0,
    fp: answer.fingerprint,
    version: answer.version,
    ...(answer.refusal ? { refusal: answer.refusal } : {}),
  });
  if (kept) return answer;
  const twin = await getByKey(tableName(), { pk, sk: 0 });
  return twin ? fromRecord(twin) : answer;
}
