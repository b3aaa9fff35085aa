import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { type AttributeValue, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type {
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  AttributeValue as StreamValue,
} from 'aws-lambda';
import { logger } from '../../functions/log.js';
import type { StoreRequest, Tap } from './proxy.js';

/** What consumes the stream: the projector's handler, as Lambda would call it. */
export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;

export interface ChangeStream {
  /** Watches the store's traffic (infra/local/proxy.ts) for the writes it must deliver. */
  readonly tap: Tap;
  /** Resolves once every write seen so far has been delivered (or given up on until the next start). */
  settled(): Promise<void>;
  /** What is held in memory now: writes not yet delivered, and games with records queued. */
  backlog(): { readonly writes: number; readonly games: number };
  /** Stops delivering; what is not delivered stays in the journal for the next start. */
  close(): void;
}

/** Deliveries of a game's records before they are given up on (in AWS: the mapping's retries). */
const ATTEMPTS = 12;
/** The longest wait between two tries: about 35 s in all before a record is given up on. */
const LONGEST_WAIT_MS = 5_000;
/** Journal lines after which it is rewritten with only the writes still pending. */
const JOURNAL_LINES = 4_096;

interface Key {
  readonly pk: string;
  readonly sk: string;
}

/**
 * An attribute as a stream record carries it: binary as base64, as Lambda's JSON event has it (an
 * item read with the SDK holds bytes; one taken from a request's JSON holds base64 already).
 */
const base64 = (bytes: Uint8Array | string) =>
  typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64');
function streamValue(value: AttributeValue): StreamValue {
  if (value.B) return { B: base64(value.B) };
  if (value.BS) return { BS: value.BS.map(base64) };
  if (value.M) return { M: streamImage(value.M) };
  if (value.L) return { L: value.L.map(streamValue) };
  return value as StreamValue;
}
const streamImage = (item: Record<string, AttributeValue>): Record<string, StreamValue> =>
  Object.fromEntries(Object.entries(item).map(([name, value]) => [name, streamValue(value)]));

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.min(LONGEST_WAIT_MS, 50 * 2 ** attempt)));

/**
 * DynamoDB Streams for the local runtime (dynalite has none). The feed is what the store holds, not
 * what a caller was told: every PutItem and UpdateItem to the event table is noted before it is forwarded, and once
 * the store has answered it (whatever became of the caller, which may have given up on it, or been
 * retried by the SDK), it is delivered as a stream record of the same shape (INSERT, NEW_IMAGE):
 * the item as written when the store says it put it, nothing when the store refused it by its
 * condition, and otherwise (an update, no answer, a fault) the item read back from the table,
 * strongly consistent, if it is there.
 *
 * With a `journal` file (in the `--data` folder), each noted write is appended to it before it is
 * forwarded and marked once delivered: a runtime killed at any point reads the journal on its next
 * start and delivers what it holds of the writes still pending, so its read models catch up.
 *
 * Records of one game are delivered in order of their versions, a batch at a time, and retried on
 * failure with backoff, as Lambda retries a batch from its first failed record; games do not wait
 * for each other, and a game's queue is freed once it is empty.
 */
export function startChangeStream(options: {
  readonly upstream: string;
  readonly tableName: string;
  readonly consumer: StreamConsumer;
  readonly journal?: string | undefined;
}): ChangeStream {
  const { tableName, consumer, journal } = options;
  const store = new DynamoDBClient({
    endpoint: options.upstream,
    region: process.env.AWS_REGION ?? 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  /** Writes noted and not yet delivered, by sequence number. */
  const pending = new Map<number, Key>();
  const queues = new Map<string, { records: DynamoDBRecord[]; running: Promise<void> }>();
  const noted = new WeakMap<StoreRequest, number>();
  const waiters: (() => void)[] = [];
  let sequence = Date.now() * 1000;
  let lines = 0;
  let closed = false;

  const note = (line: string) => {
    if (!journal) return;
    appendFileSync(journal, `${line}\n`);
    if (++lines > JOURNAL_LINES) {
      writeFileSync(
        `${journal}.new`,
        [...pending].map(([seq, key]) => `P ${seq} ${key.sk} ${key.pk}\n`).join(''),
      );
      renameSync(`${journal}.new`, journal);
      lines = pending.size;
    }
  };

  /** Done with a write: delivered, or nothing to deliver. Kept in the journal when only given up on. */
  const resolve = (seq: number, delivered: boolean) => {
    if (!pending.has(seq)) return;
    pending.delete(seq);
    if (delivered) note(`D ${seq}`);
    if (pending.size === 0) for (const wake of waiters.splice(0)) wake();
  };

  const streamRecord = (seq: number, stored: Record<string, AttributeValue>): DynamoDBRecord => {
    const item = streamImage(stored);
    return {
      eventID: String(seq),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'local',
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: { pk: item.pk!, sk: item.sk! },
        NewImage: item,
        SequenceNumber: String(seq).padStart(21, '0'),
        SizeBytes: JSON.stringify(item).length,
        StreamViewType: 'NEW_IMAGE',
      },
      eventSourceARN: `arn:aws:dynamodb:local:000000000000:table/${tableName}/stream/local`,
    };
  };

  async function drain(game: string, queue: { records: DynamoDBRecord[] }) {
    const version = (record: DynamoDBRecord) => Number(record.dynamodb!.Keys!.sk!.N);
    let batch = queue.records.splice(0).sort((a, b) => version(a) - version(b));
    const seqs = (records: DynamoDBRecord[]) => records.map((record) => Number(record.eventID));
    for (let attempt = 1; batch.length > 0 && !closed; attempt++) {
      let failed: string | undefined;
      try {
        const answer = await consumer({ Records: batch });
        failed = answer?.batchItemFailures?.[0]?.itemIdentifier;
      } catch {
        failed = batch[0]!.dynamodb!.SequenceNumber;
      }
      // As Lambda does, retry from the first record that failed; the ones before it are delivered.
      const from =
        failed === undefined ? batch.length : batch.findIndex((r) => r.dynamodb!.SequenceNumber === failed);
      for (const seq of seqs(batch.slice(0, Math.max(0, from)))) resolve(seq, true);
      batch = batch.slice(Math.max(0, from));
      if (batch.length === 0) break;
      if (attempt === ATTEMPTS) {
        logger.error('stream records given up on until the next start', {
          gameId: game,
          records: batch.length,
        });
        for (const seq of seqs(batch)) resolve(seq, false);
        break;
      }
      await pause(attempt);
    }
    if (queue.records.length === 0 && queues.get(game) === queue) queues.delete(game);
  }

  const enqueue = (record: DynamoDBRecord) => {
    const game = record.dynamodb!.Keys!.pk!.S!;
    let queue = queues.get(game);
    if (!queue) {
      queue = { records: [], running: Promise.resolve() };
      queues.set(game, queue);
    }
    queue.records.push(record);
    queue.running = queue.running.then(() => (queue.records.length > 0 ? drain(game, queue) : undefined));
  };

  /** Reads a noted write back from the table and delivers what the table holds (nothing if it is not there). */
  async function readBack(seq: number, key: Key) {
    for (let attempt = 1; !closed; attempt++) {
      try {
        const { Item } = await store.send(
          new GetItemCommand({
            TableName: tableName,
            Key: { pk: { S: key.pk }, sk: { N: key.sk } },
            ConsistentRead: true,
          }),
        );
        if (Item) enqueue(streamRecord(seq, Item));
        else resolve(seq, true);
        return;
      } catch (error) {
        if (attempt === ATTEMPTS) {
          logger.error('a write could not be read back; kept for the next start', {
            gameId: key.pk,
            error: (error as Error).message,
          });
          resolve(seq, false);
          return;
        }
        await pause(attempt);
      }
    }
  }

  const tap: Tap = {
    before: (request) => {
      const { operation, body } = request;
      if ((operation !== 'PutItem' && operation !== 'UpdateItem') || body.TableName !== tableName)
        return undefined;
      const item = (body.Item ?? body.Key) as Record<string, AttributeValue> | undefined;
      if (!item?.pk?.S || !item.sk?.N) return undefined;
      const seq = ++sequence;
      const key = { pk: item.pk.S, sk: item.sk.N };
      pending.set(seq, key);
      noted.set(request, seq);
      // Before the put is forwarded: a write the store may hold is always in the journal.
      note(`P ${seq} ${key.sk} ${key.pk}`);
      return undefined;
    },
    after: (request, answer) => {
      const seq = noted.get(request);
      if (seq === undefined) return;
      const conditionFailed = JSON.stringify(answer?.body ?? {}).includes('ConditionalCheckFailed');
      // A put the store answered wrote exactly the item it was sent: that is the image. Refused by
      // its condition, a write wrote nothing. An update's result, or any other outcome (no answer, a
      // fault), which may or may not have written it: the table says.
      if (answer?.status === 200 && request.operation === 'PutItem')
        enqueue(streamRecord(seq, request.body.Item as Record<string, AttributeValue>));
      else if (answer && conditionFailed) resolve(seq, true);
      else void readBack(seq, pending.get(seq)!);
    },
  };

  // Catch up: the writes a runtime before this one noted and did not deliver.
  if (journal && existsSync(journal)) {
    const left = new Map<number, Key>();
    for (const line of readFileSync(journal, 'utf8').split('\n')) {
      const [mark, seq, sk, ...pk] = line.split(' ');
      if (mark === 'P' && sk !== undefined && pk.length) left.set(Number(seq), { sk, pk: pk.join(' ') });
      if (mark === 'D') left.delete(Number(seq));
    }
    writeFileSync(journal, [...left].map(([seq, key]) => `P ${seq} ${key.sk} ${key.pk}\n`).join(''));
    lines = left.size;
    for (const [seq, key] of left) {
      sequence = Math.max(sequence, seq);
      pending.set(seq, key);
      void readBack(seq, key);
    }
  }

  return {
    tap,
    settled: async () => {
      while (pending.size > 0 && !closed) await new Promise<void>((wake) => waiters.push(wake));
      await Promise.all([...queues.values()].map((queue) => queue.running));
    },
    backlog: () => ({ writes: pending.size, games: queues.size }),
    close: () => {
      closed = true;
      for (const wake of waiters.splice(0)) wake();
      store.destroy();
    },
  };
}
