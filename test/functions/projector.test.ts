import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Command,
  dayOf,
  deal,
  decide,
  deckFromSeed,
  fold,
  type GameEvent,
  HOUSE_RULES,
  isViolation,
  legalMoves,
  parseDeck,
} from '../../domain/index.js';
import { handler as projector } from '../../functions/projector/handler.js';
import { rebuildReadModels } from '../../functions/projector/rebuild.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { documentClient } from '../../functions/store/client.js';
import { keepName } from '../../functions/store/daily.js';
import { dayCounts } from '../../functions/store/dailyModels.js';
import { append, createGame, loadGame } from '../../functions/store/events.js';
import {
  deleteReadModels,
  READ_TABLE_ENV,
  readModelKeys,
  statsOf,
} from '../../functions/store/readModels.js';
import { type StoreProxy, startStoreProxy } from '../../infra/local/proxy.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';
import { type ChangeStream, startChangeStream } from '../../infra/local/stream.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };

/**
 * The projector from stream records, on a real DynamoDB-compatible store: a small world of games is
 * written through the event store, its change stream recorded, and the records delivered to the
 * projector in every order Streams may deliver them (per game in order, with batches redelivered).
 */
let store: LocalStore;
let stream: ChangeStream;
let proxy: StoreProxy;
const records: DynamoDBRecord[] = [];

beforeAll(async () => {
  store = await startLocalStore();
  stream = startChangeStream({
    upstream: store.endpoint,
    tableName: store.tableName,
    consumer: async (event) => {
      records.push(...event.Records);
      return { batchItemFailures: [] };
    },
  });
  proxy = await startStoreProxy(store.endpoint, [stream.tap]);
  process.env[ENDPOINT_ENV] = proxy.endpoint;
  process.env[TABLE_ENV] = store.tableName;
  process.env[READ_TABLE_ENV] = store.readTableName;
  await world();
  await stream.settled();
  // The stream is recorded: the projector reads and writes the store itself, not through the tap.
  process.env[ENDPOINT_ENV] = store.endpoint;
});
afterAll(async () => {
  stream.close();
  await proxy.close();
  await store.close();
});

/**
 * Plays a game through the event store as the command flow would: deal, then each command, in
 * commits of `perCommit` events (an autoplay or an autocomplete appends several at once).
 */
async function game(
  id: string,
  owner: string | undefined,
  deck: number[],
  commands: (loaded: GameEvent[]) => Command | undefined,
  daily?: string,
  perCommit = 1,
) {
  const dealt = deal(deck, null, HOUSE_RULES, daily);
  await createGame(id, dealt, {
    tokenHash: 'h',
    ...(owner ? { owner } : {}),
    createdAt: new Date().toISOString(),
  });
  const events: GameEvent[] = [dealt];
  for (let done = false; !done; ) {
    const commit: GameEvent[] = [];
    while (commit.length < perCommit) {
      const command = commands([...events, ...commit]);
      if (!command) {
        done = true;
        break;
      }
      const event = decide(fold([...events, ...commit]), command);
      if (isViolation(event)) throw new Error(event.rule);
      commit.push(event);
    }
    if (commit.length === 0) return;
    const loaded = (await loadGame(id))!;
    const appended = await append(id, commit, { expected: loaded, at: new Date().toISOString() });
    if (typeof appended === 'symbol') throw new Error('conflict');
    events.push(...commit);
  }
}

const line = fixtures.lines[0]!;

// Today: a daily game ranks only when won on its day.
const DAY = dayOf(Date.now());

/**
 * Three players: wins, resignations and games in play; one anonymous game; and a daily deal that
 * ann wins, ben resigns and cy plays, ann under a name she chose.
 */
async function world() {
  const winning = parseDeck(line.deck) as number[];
  // The two wins are played in commits of four events (as an autoplay appends them): a record
  // costs a projection, and every delivery of the property below projects them all.
  for (const [id, daily] of [
    ['ann-won', undefined],
    ['ann-daily', DAY],
  ] as const) {
    await game(
      id,
      'ann',
      winning,
      (events) => line.moves[events.length - 1] as Command | undefined,
      daily,
      4,
    );
  }
  for (const [owner, steps] of [
    ['ben', 6],
    ['cy', 3],
  ] as const) {
    await game(
      `${owner}-daily`,
      owner,
      winning,
      (events) =>
        events.length <= steps
          ? (line.moves[events.length - 1] as Command)
          : owner === 'ben' && fold(events).status === 'playing'
            ? { type: 'resign' }
            : undefined,
      DAY,
    );
  }
  await keepName('ann', 'Ann of the Foundations', new Date().toISOString());
  // Commits of one to five events: the longer a game, the more it appends at once.
  for (const [i, owner] of ['ann', 'ben', 'ben', 'cy', undefined].entries()) {
    const steps = 5 + 11 * i;
    await game(
      `g${i}`,
      owner,
      deckFromSeed(i),
      (events) => {
        const state = fold(events);
        if (state.status !== 'playing') return undefined;
        if (events.length > steps) return i % 2 === 0 ? undefined : { type: 'resign' };
        return legalMoves(state)[(i * 7 + events.length) % 3] ?? { type: 'resign' };
      },
      undefined,
      i + 1,
    );
  }
}

async function dump(): Promise<unknown[]> {
  const page = await documentClient().send(new ScanCommand({ TableName: store.readTableName }));
  return (page.Items ?? []).sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`));
}

const gameOf = (record: DynamoDBRecord) => record.dynamodb!.Keys!.pk!.S!;

async function deliver(batches: DynamoDBRecord[][]) {
  for (const batch of batches) {
    const answer = await projector({ Records: batch });
    expect(answer.batchItemFailures).toEqual([]);
  }
}

let clean: unknown[];
const clearReadModels = async () => deleteReadModels(await readModelKeys());

describe('the projector', () => {
  it('builds each player their rows and statistics from one clean pass of the stream', async () => {
    await clearReadModels();
    await deliver(records.map((record) => [record]));
    clean = await dump();
    expect(clean.filter((item: any) => item.sk.startsWith('game#'))).toHaveLength(8);
    const attempts = clean.filter((item: any) => item.pk.startsWith(`daily#${DAY}#`) && item.attempt);
    expect(
      attempts.map((item: any) => [item.attempt.gameId, item.attempt.status, item.attempt.name]).sort(),
    ).toEqual([
      ['ann-daily', 'won', 'Ann of the Foundations'],
      ['ben-daily', 'resigned', expect.stringMatching(/^Player /)],
      ['cy-daily', 'playing', expect.stringMatching(/^Player /)],
    ]);
    expect(attempts.filter((item: any) => item.board)).toHaveLength(1);
    expect(await dayCounts(DAY)).toEqual({ players: 3, won: 1 });
    expect(clean.some((item: any) => JSON.stringify(item).includes('"g4"'))).toBe(false);
    expect(await statsOf('ann')).toMatchObject({
      started: 3,
      won: 2,
      bestVegas: 208,
      fewestMovesToWin: line.moves.length,
    });
    expect(await statsOf('ben')).toMatchObject({ started: 3, inPlay: 1, resigned: 2, won: 0, winRate: 0 });
    expect(await statsOf('cy')).toMatchObject({ started: 2, resigned: 1, inPlay: 1 });
    expect((await statsOf('ann'))!.daily).toMatchObject({ played: 1, won: 1, lastWin: { day: DAY, run: 1 } });
  });

  it('gives the same read models for any delivery: batches, duplicates and redeliveries, per game in order', async () => {
    const byGame = new Map<string, DynamoDBRecord[]>();
    for (const record of records) byGame.set(gameOf(record), [...(byGame.get(gameOf(record)) ?? []), record]);
    const games = [...byGame.values()];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: games.length - 1 }), { minLength: 40, maxLength: 120 }),
        fc.array(fc.nat({ max: 4 }), { minLength: 40, maxLength: 120 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 5, maxLength: 20 }),
        async (turns, rewinds, sizes) => {
          // Each turn a game delivers its next records, sometimes going back a few (a redelivery).
          const next = games.map(() => 0);
          const delivered: DynamoDBRecord[] = [];
          const step = (g: number, k: number) => {
            const from = Math.max(0, next[g]! - (rewinds[k % rewinds.length]! % 3));
            const to = Math.min(games[g]!.length, next[g]! + 1 + (rewinds[k % rewinds.length]! % 4));
            delivered.push(...games[g]!.slice(from, to));
            next[g] = to;
          };
          for (const [k, g] of turns.entries()) step(g, k);
          for (let g = 0; g < games.length; g++) while (next[g]! < games[g]!.length) step(g, next[g]!);
          const batches: DynamoDBRecord[][] = [];
          for (let at = 0, k = 0; at < delivered.length; k++) {
            const size = sizes[k % sizes.length]!;
            batches.push(delivered.slice(at, at + size));
            at += size;
          }
          await clearReadModels();
          await deliver(batches);
          expect(await dump()).toEqual(clean);
        },
      ),
      { numRuns: 8 },
    );
  });

  it('gives the same read models as a rebuild from the log alone', async () => {
    const rebuilt = await rebuildReadModels();
    expect(rebuilt).toMatchObject({ games: 8, players: 3 });
    expect(await dump()).toEqual(clean);
  });

  it('rebuilds in place: a wrong row at the same version is replaced, a stray one deleted; concurrent calls share one rebuild', async () => {
    const row = clean.find((item: any) => item.sk.startsWith('game#')) as Record<string, any>;
    const client = documentClient();
    await client.send(
      new PutCommand({ TableName: store.readTableName, Item: { ...row, game: { ...row.game, moves: 999 } } }),
    );
    await client.send(
      new PutCommand({ TableName: store.readTableName, Item: { ...row, sk: 'game#1999-01-01#gone' } }),
    );
    const [one, two] = [rebuildReadModels(), rebuildReadModels()];
    expect(one).toBe(two);
    expect(await one).toMatchObject({ deleted: 1, games: 8, players: 3 });
    expect(await dump()).toEqual(clean);
  });

  it('skips records beside the log and removals; reports a failing game at its first record', async () => {
    const beside = {
      ...records[0]!,
      dynamodb: { ...records[0]!.dynamodb, Keys: { pk: { S: 'idem#x' }, sk: { N: '0' } } },
    };
    const removal = { ...records[0]!, eventName: 'REMOVE' as const };
    expect(await projector({ Records: [beside, removal] })).toEqual({ batchItemFailures: [] });
    // Every item of a player's game carries its owner; an anonymous game's are skipped unread.
    expect(
      records
        .filter((record) => gameOf(record) !== 'g4' && !gameOf(record).includes('#'))
        .every((record) => record.dynamodb!.NewImage!.owner),
    ).toBe(true);
    expect(
      records.filter((record) => gameOf(record) === 'g4').some((record) => record.dynamodb!.NewImage!.owner),
    ).toBe(false);
    const first = records.find((record) => gameOf(record) === 'g1')!;
    const later = records.filter((record) => gameOf(record) === 'g1').at(-1)!;
    const table = process.env[READ_TABLE_ENV];
    process.env[READ_TABLE_ENV] = 'no-such-table';
    try {
      const answer = await projector({ Records: [first, later] });
      expect(answer.batchItemFailures).toEqual([{ itemIdentifier: first.dynamodb!.SequenceNumber }]);
    } finally {
      process.env[READ_TABLE_ENV] = table;
    }
  });
});
