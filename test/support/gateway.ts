import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A minimal API Gateway (payload 2.0) event, as a handler test sends it. */
export function gatewayEvent(options: {
  method?: string;
  path?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** When the request arrived, in epoch ms (`requestContext.timeEpoch`); 0, none, by default. */
  arrivedAt?: number;
}): APIGatewayProxyEventV2 {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/';
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: options.headers ?? {},
    ...(options.query ? { queryStringParameters: options.query } : {}),
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'test',
      domainPrefix: 'test',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '',
      timeEpoch: options.arrivedAt ?? 0,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}

export const parse = (response: { body?: string }) => JSON.parse(response.body ?? 'null');
