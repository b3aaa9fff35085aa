/**
 * The local runtime for the read-side benchmarks (bench:projection, bench:daily): its store metered,
 * and every record the projector has projected reported to `projected` with the time it was done.
 * The handlers are imported here, after the caller has set LOG_LEVEL (their logger reads it once).
 */
import type { DynamoDBRecord } from 'aws-lambda';

export async function startTimedRuntime(projected: (record: DynamoDBRecord, at: number) => void) {
  const { handler: projector } = await import('../functions/projector/handler.js');
  const { startRuntime } = await import('../infra/local/runtime.js');
  return startRuntime({
    port: 0,
    meter: true,
    projector: async (event) => {
      const answer = await projector(event);
      const now = performance.now();
      for (const record of event.Records) projected(record, now);
      return answer;
    },
  });
}
