import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured logs (Powertools Logger): one JSON line per entry, with its level, time, the service
 * and, in Lambda, the function and its request id (`addContext`), for CloudWatch Logs Insights.
 * `LOG_LEVEL` sets the level (DEBUG, INFO, WARN, ERROR, or SILENT for none). Callers never pass a
 * token or a card.
 */
export const logger = new Logger({ serviceName: 'klondike' });
