import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deal, HOUSE_RULES } from '../../domain/index.js';
import { deckFromSeed } from '../../domain/shuffle.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import {
  CREATION_SECRET_ENV,
  type Creation,
  creationKey,
  findCreation,
  recordCreation,
} from '../../functions/store/creations.js';
import { getByKey } from '../../functions/store/table.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';

/**
 * A game created under an Idempotency-Key is kept to answer its retry (docs/security.md): the
 * record holds the token sealed, under a key made of the Idempotency-Key and the service's secret,
 * so that a copy of the table cannot even test a guess of a short key.
 */
let store: LocalStore;
const secret = process.env[CREATION_SECRET_ENV];
beforeAll(async () => {
  store = await startLocalStore();
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[TABLE_ENV] = store.tableName;
});
afterAll(async () => {
  if (secret === undefined) delete process.env[CREATION_SECRET_ENV];
  else process.env[CREATION_SECRET_ENV] = secret;
  for (const name of [ENDPOINT_ENV, TABLE_ENV]) delete process.env[name];
  await store.close();
});

const creation: Creation = {
  gameId: 'game-1',
  fingerprint: 'fp',
  dealt: deal(deckFromSeed(1), 1, HOUSE_RULES),
  token: 'the-token-of-game-1-xxxxxx',
  tokenHash: 'hash',
  owner: 'alice',
  createdAt: '2026-12-05T10:00:00.000Z',
};

describe('the record of a keyed creation', () => {
  it('gives the token back to the same key under the same secret, and nothing under another secret', async () => {
    const key = creationKey('k1', 'alice');
    expect(await recordCreation(key, creation)).toBe(true);
    expect(await findCreation(key)).toMatchObject({
      gameId: 'game-1',
      token: creation.token,
      owner: 'alice',
    });
    // Where a guess of the key alone would look for it (the key's hash), there is nothing.
    const guessed = `idem#${createHash('sha256').update(key).digest('base64url')}`;
    expect(await getByKey(store.tableName, { pk: guessed, sk: 0 })).toBeUndefined();
    // Another secret (a table copied elsewhere, and the key guessed) finds no record.
    process.env[CREATION_SECRET_ENV] = 'another-secret-of-thirty-two-characters-or-more';
    expect(await findCreation(key)).toBeUndefined();
  });

  it('is refused without a secret: the service never keys a record with the key alone', async () => {
    delete process.env[CREATION_SECRET_ENV];
    await expect(findCreation(creationKey('k2'))).rejects.toThrow(/CREATION_SECRET is not set/);
  });
});
