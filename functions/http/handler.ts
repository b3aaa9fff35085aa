import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { logger } from '../log.js';
import { bodyLimit, routeNamed } from '../routes.js';
import { sinceArrival } from '../solver.js';
import { withStoreBudget } from '../store/client.js';
import { StoreUnavailable } from '../store/faults.js';
import { Problem, storeUnavailable } from './problem.js';
import { type Request, toRequest } from './request.js';
import { problemResponse, type Response } from './respond.js';

/** An API Gateway (payload 2.0) handler; the local runtime calls it without a Lambda context. */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<Response>;

/**
 * Wraps a route's logic as an API Gateway (payload 2.0) handler: body limit, problem+json for every
 * error, 503 for store faults (and once the store has taken STORE_REQUEST_MS of the request), one
 * structured log line per request (never a token or a card).
 */
export function httpHandler(route: string, run: (request: Request) => Promise<Response>): LambdaHandler {
  const limit = bodyLimit(routeNamed(route));
  return async (event, context) => {
    const started = performance.now();
    if (context) logger.addContext(context);
    let response: Response;
    let request: Request | undefined;
    try {
      const parsed = toRequest(event, limit);
      request = parsed;
      // The store's time is bounded for the request as a whole, not only call by call; the solver's
      // from the request's arrival.
      response = await withStoreBudget(() =>
        sinceArrival(event.requestContext?.timeEpoch, () => run(parsed)),
      );
    } catch (error) {
      if (error instanceof Problem) response = problemResponse(error);
      else if (error instanceof StoreUnavailable) {
        const cause = error.cause as { name?: string; code?: string } | undefined;
        logger.warn('store unavailable', { route, fault: cause?.name ?? cause?.code });
        response = problemResponse(storeUnavailable());
      } else {
        logger.error('unhandled error', {
          route,
          requestId: event.requestContext?.requestId,
          error: (error as Error)?.stack ?? String(error),
        });
        response = problemResponse(
          new Problem('internal', 'Something went wrong on our side; it has been logged.'),
        );
      }
    }
    logger[response.statusCode >= 500 ? 'error' : 'info']('request', {
      route,
      requestId: event.requestContext?.requestId,
      method: request?.method,
      path: request?.path,
      gameId: event.pathParameters?.id,
      status: response.statusCode,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
    return response;
  };
}
