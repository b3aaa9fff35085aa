import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../functions/log.js';

/** What consumes the stream: the projector's handler, as Lambda would call it. */
export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;

export interface ChangeStream {
  /** Where the functions send their DynamoDB requests (this proxy, in front of the store). */
  readonly endpoint: string;
  /** Resolves once every record seen so far has been delivered (or given up on). */
  settled(): Promise<void>;
  /** What has passed to the store so far, for benchmarks: requests by operation (`Query`, `PutItem`, ...). */
  readonly requests: ReadonlyMap<string, number>;
  /** Items the store's Query answers returned, and puts refused by their condition. */
  readonly counts: { readonly itemsRead: number; readonly failedPuts: number };
  close(): Promise<void>;
}

/** Deliveries of a game's records before one is given up on (in AWS: the mapping's retries, then the queue). */
const ATTEMPTS = 12;
/** The longest wait between two deliveries: about 35 s in all before a batch is given up. */
const LONGEST_WAIT_MS = 5_000;

/**
 * DynamoDB Streams for the local runtime (dynalite has none): a proxy in front of the store that
 * passes every request through and, for each item put into the event table, hands a stream record
 * of the same shape (INSERT, NEW_IMAGE) to the consumer, after the put has been answered. Records
 * of one game are delivered in order, a batch at a time, and retried on failure with backoff;
 * games do not wait for each other.
 */
export async function startChangeStream(options: {
  readonly upstream: string;
  readonly tableName: string;
  readonly consumer: StreamConsumer;
}): Promise<ChangeStream> {
  const target = new URL(options.upstream);
  const queues = new Map<string, { records: DynamoDBRecord[]; running: Promise<void> }>();
  let sequence = 0;
  const requests = new Map<string, number>();
  const counts = { itemsRead: 0, failedPuts: 0 };

  const enqueue = (record: DynamoDBRecord) => {
    const game = record.dynamodb!.Keys!.pk!.S!;
    const queue = queues.get(game) ?? { records: [], running: Promise.resolve() };
    queues.set(game, queue);
    queue.records.push(record);
    queue.running = queue.running.then(() => drain(game, queue.records));
  };

  async function drain(game: string, records: DynamoDBRecord[]) {
    let batch = records.splice(0);
    for (let attempt = 1; batch.length > 0; attempt++) {
      let failed: string | undefined;
      try {
        const answer = await options.consumer({ Records: batch });
        failed = answer?.batchItemFailures?.[0]?.itemIdentifier;
      } catch {
        failed = batch[0]!.dynamodb!.SequenceNumber;
      }
      if (failed === undefined) return;
      if (attempt === ATTEMPTS) {
        logger.error('stream records given up on', { gameId: game, records: batch.length });
        return;
      }
      // As Lambda does, retry from the first record that failed.
      batch = batch.slice(
        Math.max(
          0,
          batch.findIndex((record) => record.dynamodb!.SequenceNumber === failed),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, Math.min(LONGEST_WAIT_MS, 50 * 2 ** attempt)));
    }
  }

  const recordOf = (item: Record<string, AttributeValue>): DynamoDBRecord => ({
    eventID: String(++sequence),
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'local',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: { pk: item.pk!, sk: item.sk! },
      NewImage: item,
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: JSON.stringify(item).length,
      StreamViewType: 'NEW_IMAGE',
    },
    eventSourceARN: `arn:aws:dynamodb:local:000000000000:table/${options.tableName}/stream/local`,
  });

  const server: Server = createServer((incoming, outgoing) => {
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    requests.set(operation, (requests.get(operation) ?? 0) + 1);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = forward(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          const answered: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => answered.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(answered);
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(text);
            if (operation === 'Query' && answer.statusCode === 200) {
              counts.itemsRead += (JSON.parse(text.toString('utf8')) as { Count?: number }).Count ?? 0;
            }
            if (operation !== 'PutItem') return;
            if (answer.statusCode !== 200) {
              if (text.includes('ConditionalCheckFailedException')) counts.failedPuts++;
              return;
            }
            const request = JSON.parse(body.toString('utf8')) as {
              TableName: string;
              Item: Record<string, AttributeValue>;
            };
            // After the put is answered, as a stream record follows the write it records.
            if (request.TableName === options.tableName)
              outgoing.once('finish', () => enqueue(recordOf(request.Item)));
          });
        },
      );
      upstream.on('error', (error) => {
        outgoing.writeHead(502);
        outgoing.end(String(error));
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    counts,
    settled: async () => {
      while ([...queues.values()].some((queue) => queue.records.length > 0)) {
        await Promise.all([...queues.values()].map((queue) => queue.running));
      }
      await Promise.all([...queues.values()].map((queue) => queue.running));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
