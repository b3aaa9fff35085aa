import { nextDay } from '../../domain/index.js';
import { now } from '../clock.js';
import { prepareDeals } from '../daily.js';
import { today } from '../dailyDay.js';
import { logger } from '../log.js';
import { tableName } from '../store/client.js';
import { dailyDeal } from '../store/daily.js';

/**
 * The metric the stack's alarm watches: 1 when tomorrow's deal is missing in the last hour of today.
 * Its dimension is the event table's name, so that stages side by side in one account each report
 * (and alarm) on their own.
 */
export const METRIC = { namespace: 'Klondike', name: 'NextDailyDealMissing', dimension: 'Table' } as const;

/**
 * Invoked every hour by an EventBridge Scheduler schedule: prepares today's and tomorrow's daily
 * deals ahead of their first request (a conditional put: a request that got there first stands).
 * Then it says, in CloudWatch's embedded metric format, whether tomorrow's deal is still missing
 * in the last hour before midnight (UTC): the stack alarms on it, and on no figure at all (the
 * schedule or the function broken). A preparation that failed fails the run, after its metric:
 * Lambda counts the error (the stack's alarm on the function's errors) and runs it again (the
 * function's asynchronous invocation: 2 retries, within 30 minutes).
 */
export async function handler(): Promise<{ prepared: readonly string[] }> {
  let prepared: readonly string[] = [];
  let failure: unknown;
  try {
    ({ prepared } = await prepareDeals());
  } catch (error) {
    failure = error;
    logger.error('daily deal not prepared', { error: (error as Error)?.message ?? String(error) });
  }
  const tomorrow = nextDay(today());
  const missing = new Date(now()).getUTCHours() === 23 && !(await dailyDeal(tomorrow).catch(() => undefined));
  // The embedded metric format: CloudWatch turns this log line into a metric, no API call needed.
  console.log(
    JSON.stringify({
      _aws: {
        Timestamp: now(),
        CloudWatchMetrics: [
          {
            Namespace: METRIC.namespace,
            Dimensions: [[METRIC.dimension]],
            Metrics: [{ Name: METRIC.name, Unit: 'Count' }],
          },
        ],
      },
      [METRIC.dimension]: tableName(),
      [METRIC.name]: missing ? 1 : 0,
      tomorrow,
    }),
  );
  if (failure !== undefined) throw failure;
  return { prepared };
}
