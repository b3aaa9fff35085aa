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
  /** Resolves once every write seen so far has been delivered, or set aside to be tried again later. */
  settled(): Promise<void>;
  /** What is held in memory now: writes not yet delivered (set aside too), and games with records queued. */
  backlog(): { readonly writes: number; readonly games: number };
  /** Stops delivering; what is not delivered stays in the journal for the next start. */
  close(): void;
}

/** Deliveries of a game's records before they are set aside (in AWS: the mapping's retries). */
const ATTEMPTS = 12;
/** The longest wait between two tries: about 31 s in all before a record is set aside. */
const LONGEST_WAIT_MS = 5_000;
/** How long a record set aside waits before it is read back and delivered again, as often as it fails. */
export const SET_ASIDE_MS = 60_000;
/** Journal lines after which it is rewritten with only the writes not yet delivered. */
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

/** The change feed's journal cannot be written: the write it was to note is not forwarded. */
export class JournalUnwritable extends Error {
  constructor(journal: string, cause: unknown) {
    super(`the change feed's journal ${journal} cannot be written: ${(cause as Error).message}`, { cause });
    this.name = 'JournalUnwritable';
  }
}

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
 * start and delivers what it holds of the writes not yet delivered, so its read models catch up.
 * The journal is rewritten, when it grows long, with every write not yet delivered.
 *
 * Records of one game are delivered in order of their versions, a batch at a time, and retried on
 * failure with backoff, as Lambda retries a batch from its first failed record; games do not wait
 * for each other, and a game's queue is freed once it is empty. A record that still fails after
 * `ATTEMPTS` tries (or cannot be read back) is set aside: `settled` no longer waits for it, and
 * `SET_ASIDE_MS` later it is read back and delivered again, for as long as the runtime runs (the
 * projector loads the game as it stands, so a late record is as good as one on time).
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
    region: process.env.AWS_REGION || 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  /** Writes noted and not yet delivered, by sequence number: what the journal holds once rewritten. */
  const undelivered = new Map<number, Key>();
  /** Of those, the ones being delivered now (`settled` waits for them). */
  const pending = new Set<number>();
  /** Of those, the ones set aside after failing, each with the timer that tries it again. */
  const setAside = new Map<number, NodeJS.Timeout>();
  const queues = new Map<string, { records: DynamoDBRecord[]; running: Promise<void> }>();
  const noted = new WeakMap<StoreRequest, number>();
  const waiters: (() => void)[] = [];
  let sequence = Date.now() * 1000;
  let lines = 0;
  let closed = false;

  /** Rewrites the journal with only the writes not yet delivered (set aside included). */
  const compact = (path: string) => {
    writeFileSync(
      `${path}.new`,
      [...undelivered].map(([seq, key]) => `P ${seq} ${key.sk} ${key.pk}\n`).join(''),
    );
    renameSync(`${path}.new`, path);
    lines = undelivered.size;
  };

  /** Whether the journal's last write failed: said once, when it begins to fail and when it works again. */
  let journalFailing = false;
  const journalWorks = (works: boolean, error?: unknown) => {
    if (works === !journalFailing) return;
    journalFailing = !works;
    if (works)
      console.error(`The change feed's journal ${journal} can be written again: writes are taken again.`);
    else
      console.error(
        `The change feed's journal ${journal} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): writes are refused (503) until it can, reads go on.`,
      );
  };

  /**
   * Appends a line to the journal; throws `JournalUnwritable` when it cannot. A rewrite that fails
   * leaves the journal as it was (longer), which is said and not thrown.
   */
  const note = (line: string) => {
    if (!journal) return;
    try {
      appendFileSync(journal, `${line}\n`);
    } catch (error) {
      journalWorks(false, error);
      throw new JournalUnwritable(journal, error);
    }
    journalWorks(true);
    // Past twice the lines it must keep: many writes not yet delivered do not make every line a rewrite.
    if (++lines > Math.max(JOURNAL_LINES, 2 * undelivered.size)) {
      try {
        compact(journal);
      } catch (error) {
        logger.error('the change feed journal could not be rewritten; it stays as it was', {
          journal,
          error: (error as Error).message,
        });
      }
    }
  };

  const idle = () => {
    if (pending.size === 0) for (const wake of waiters.splice(0)) wake();
  };

  /** Done with a write: delivered, or nothing to deliver. */
  const delivered = (seq: number) => {
    if (!undelivered.delete(seq)) return;
    pending.delete(seq);
    try {
      note(`D ${seq}`);
    } catch {
      // Not marked: the next start reads the write back and delivers it again, which changes nothing.
    }
    idle();
  };

  /** A write that failed every try for now: kept in the journal, and tried again later in this run. */
  const putAside = (seq: number) => {
    if (!pending.delete(seq)) return;
    const timer = setTimeout(() => {
      setAside.delete(seq);
      const key = undelivered.get(seq);
      if (closed || !key) return;
      pending.add(seq);
      void readBack(seq, key);
    }, SET_ASIDE_MS);
    timer.unref();
    setAside.set(seq, timer);
    idle();
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
      for (const seq of seqs(batch.slice(0, Math.max(0, from)))) delivered(seq);
      batch = batch.slice(Math.max(0, from));
      if (batch.length === 0) break;
      if (attempt === ATTEMPTS) {
        logger.error('stream records set aside, to be tried again', {
          gameId: game,
          records: batch.length,
          retryInMs: SET_ASIDE_MS,
        });
        for (const seq of seqs(batch)) putAside(seq);
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
        else delivered(seq);
        return;
      } catch (error) {
        if (attempt === ATTEMPTS) {
          logger.error('a write could not be read back; set aside, to be tried again', {
            gameId: key.pk,
            error: (error as Error).message,
            retryInMs: SET_ASIDE_MS,
          });
          putAside(seq);
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
      // Before the put is forwarded: a write the store may hold is always in the journal (a rewrite
      // of the journal keeps what is undelivered, this write included). One the journal cannot hold
      // is not forwarded (the proxy answers it as a store fault, 503 to the client): after a crash,
      // nothing would bring it to the read models.
      undelivered.set(seq, key);
      try {
        note(`P ${seq} ${key.sk} ${key.pk}`);
      } catch (error) {
        undelivered.delete(seq);
        throw error;
      }
      pending.add(seq);
      noted.set(request, seq);
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
      else if (answer && conditionFailed) delivered(seq);
      else void readBack(seq, undelivered.get(seq)!);
    },
  };

  // Catch up: the writes a runtime before this one noted and did not deliver. A line that is not one
  // the journal writes (a damaged file) is left out and said: a rebuild makes the read models whole.
  if (journal && existsSync(journal)) {
    let unreadable = 0;
    for (const line of readFileSync(journal, 'utf8').split('\n')) {
      const put = /^P (\d+) (\d+) (.+)$/.exec(line);
      const done = /^D (\d+)$/.exec(line);
      if (put) undelivered.set(Number(put[1]), { sk: put[2]!, pk: put[3]! });
      else if (done) undelivered.delete(Number(done[1]));
      else if (line !== '') unreadable++;
    }
    if (unreadable > 0)
      console.error(
        `The change feed's journal ${journal} has ${unreadable} line${unreadable > 1 ? 's' : ''} it cannot read, left out: if the read models lag behind the games, npm run rebuild-projections makes them whole.`,
      );
    compact(journal);
    for (const [seq, key] of undelivered) {
      sequence = Math.max(sequence, seq);
      pending.add(seq);
      void readBack(seq, key);
    }
  }

  return {
    tap,
    settled: async () => {
      while (pending.size > 0 && !closed) await new Promise<void>((wake) => waiters.push(wake));
      await Promise.all([...queues.values()].map((queue) => queue.running));
    },
    backlog: () => ({ writes: undelivered.size, games: queues.size }),
    close: () => {
      closed = true;
      for (const timer of setAside.values()) clearTimeout(timer);
      setAside.clear();
      for (const wake of waiters.splice(0)) wake();
      store.destroy();
    },
  };
}
