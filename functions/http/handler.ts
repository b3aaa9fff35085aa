import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { log } from '../log.js';
import { bodyLimit, routeNamed } from '../routes.js';
import { isStoreFault, storeUnavailable } from '../store/faults.js';
import { Problem } from './problem.js';
import { type Request, toRequest } from './request.js';
import { problemResponse, type Response } from './respond.js';

export type LambdaHandler = (event: APIGatewayProxyEventV2) => Promise<Response>;

/**
 * Wraps a route's logic as an API Gateway (payload 2.0) handler: body limit, problem+json for every
 * error, 503 for store faults, one structured log line per request (never a token or a card).
 */
export function httpHandler(route: string, run: (request: Request) => Promise<Response>): LambdaHandler {
  const limit = bodyLimit(routeNamed(route));
  return async (event) => {
    const started = performance.now();
    let response: Response;
    let request: Request | undefined;
    try {
      request = toRequest(event, limit);
      response = await run(request);
    } catch (error) {
      if (error instanceof Problem) response = problemResponse(error);
      else if (isStoreFault(error)) response = problemResponse(storeUnavailable());
      else {
        log('ERROR', 'unhandled error', {
          route,
          requestId: event.requestContext?.requestId,
          error: (error as Error)?.stack ?? String(error),
        });
        response = problemResponse(
          new Problem('internal', 'Something went wrong on our side; it has been logged.'),
        );
      }
    }
    log(response.statusCode >= 500 ? 'ERROR' : 'INFO', 'request', {
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
