import { DeleteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient } from '../../functions/store/client.js';
import { LogDamaged, loadGame, readEvents, SNAPSHOT_EVERY } from '../../functions/store/events.js';
import { newGame, useLocalApi } from '../support/local.js';

const server = useLocalApi();

async function playDraws(id: string, auth: Record<string, string>, count: number) {
  let view: any;
  for (let i = 0; i < count; i++) {
    const type = view?.stock.count === 0 ? 'recycle' : 'draw';
    view = (await server.api.post(`/games/${id}/moves`, { type }, auth)).body;
  }
  return view;
}

describe('snapshots are a cache beside the log', () => {
  it('a load reads at most SNAPSHOT_EVERY items however long the game', async () => {
    const { id, auth } = await newGame(server.api, { seed: 3, rules: { passes: null } });
    await playDraws(id, auth, 3 * SNAPSHOT_EVERY + 5);
    for (let version = 0; version <= 3 * SNAPSHOT_EVERY + 5; version += 7) {
      const loaded = await loadGame(id, version);
      expect(loaded!.state.version).toBe(version);
      expect(loaded!.itemsRead).toBeLessThanOrEqual(SNAPSHOT_EVERY);
    }
  });

  it('with every snapshot deleted, the game folds from the log to the same view', async () => {
    const { id, auth } = await newGame(server.api, { seed: 4, rules: { passes: null } });
    const before = await playDraws(id, auth, 2 * SNAPSHOT_EVERY + 3);
    const items = await documentClient().send(new ScanCommand({ TableName: server.local.tableName }));
    const withSnapshots = (items.Items ?? []).filter((item) => item.pk === id && item.snap);
    expect(withSnapshots.map((item) => item.sk)).toEqual([SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY]);
    for (const item of withSnapshots) {
      await documentClient().send(
        new UpdateCommand({
          TableName: server.local.tableName,
          Key: { pk: id, sk: item.sk },
          UpdateExpression: 'REMOVE snap, tokenHash',
        }),
      );
    }
    const after = await server.api.get(`/games/${id}`, auth);
    expect(after.body).toEqual(before);
    expect((await loadGame(id))!.itemsRead).toBe(2 * SNAPSHOT_EVERY + 4);
    // And play goes on.
    expect((await server.api.post(`/games/${id}/undo`, undefined, auth)).status).toBe(200);
  });

  it('a snapshot this release cannot read is skipped, and the log folded instead', async () => {
    const { id, auth } = await newGame(server.api, { seed: 6, rules: { passes: null } });
    const before = await playDraws(id, auth, SNAPSHOT_EVERY + 2);
    await documentClient().send(
      new UpdateCommand({
        TableName: server.local.tableName,
        Key: { pk: id, sk: SNAPSHOT_EVERY },
        UpdateExpression: 'SET snap = :junk',
        ExpressionAttributeValues: { ':junk': new Uint8Array([1, 2, 3]) },
      }),
    );
    expect((await server.api.get(`/games/${id}`, auth)).body).toEqual(before);
  });
});

describe('a log with a version missing (its store damaged)', () => {
  it('is neither folded nor served nor written on: the requests fail, and nothing is appended', async () => {
    const { id, auth } = await newGame(server.api, { seed: 7, rules: { passes: null } });
    await playDraws(id, auth, 4);
    await documentClient().send(
      new DeleteCommand({ TableName: server.local.tableName, Key: { pk: id, sk: 2 } }),
    );
    await expect(loadGame(id)).rejects.toThrow(new LogDamaged(id, 2, 3));
    await expect(readEvents(id, 0, 4)).rejects.toThrow(LogDamaged);
    for (const answer of [
      await server.api.get(`/games/${id}`, auth),
      await server.api.get(`/games/${id}/events`, auth),
      await server.api.get(`/games/${id}/replay?from=1&to=4`, auth),
      await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth),
    ]) {
      expect(answer.status).toBe(500);
      expect(answer.body.type).toBe('/problems/internal');
    }
    const items = await documentClient().send(new ScanCommand({ TableName: server.local.tableName }));
    expect((items.Items ?? []).filter((item) => item.pk === id).map((item) => item.sk)).toEqual([0, 1, 3, 4]);
  });
});
