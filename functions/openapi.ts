import { z } from 'zod';
import { PROBLEM_TYPES, type ProblemType, problemUri } from './http/problem.js';
import { BODY_LIMIT, REPLAY_BODY_LIMIT, ROUTES, type Route } from './routes.js';
import * as schemas from './schemas.js';

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const idOf = (schema: z.ZodType) => (schema.meta() as { id?: string } | undefined)?.id;

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

const versionHeader = {
  ETag: { description: 'The game\'s version, quoted: "<version>"', schema: { type: 'string' } },
};

/** Per route: the request body, query parameters and the success response. */
const SHAPES: Record<
  string,
  { body?: z.ZodType; query?: z.ZodObject; ok: [number, z.ZodType]; game?: boolean; write?: boolean }
> = {
  createGame: { body: schemas.CreateGame, ok: [201, schemas.CreatedGame] },
  getGame: { query: schemas.ViewQuery, ok: [200, schemas.View], game: true },
  playMove: { body: schemas.Move, ok: [200, schemas.View], game: true, write: true },
  undo: { ok: [200, schemas.View], game: true, write: true },
  redo: { ok: [200, schemas.View], game: true, write: true },
  resign: { ok: [200, schemas.View], game: true, write: true },
  listEvents: { query: schemas.EventsQuery, ok: [200, schemas.EventPage], game: true },
  replay: { query: schemas.ReplayQuery, ok: [200, schemas.ReplayFrames], game: true },
  checkReplay: { body: schemas.ReplayRequest, ok: [200, schemas.ReplayResult] },
  openapi: { ok: [200, z.object({}).loose()] },
};

function operation(route: Route, toSchema: (schema: z.ZodType) => Json): Json {
  const shape = SHAPES[route.name]!;
  const parameters: Json[] = [];
  if (shape.game) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, field] of Object.entries(shape.query?.shape ?? {})) {
    parameters.push({
      name,
      in: 'query',
      required: false,
      schema: { type: 'integer' },
      description: (field as z.ZodType).description,
    });
  }
  if (route.method === 'POST') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,64}$' },
    });
  }
  if (shape.write)
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      schema: { type: 'string', example: '"12"' },
    });
  const [status, okSchema] = shape.ok;
  const responses: Json = {
    [status]: {
      description: 'Success',
      headers: shape.game || route.name === 'createGame' ? versionHeader : undefined,
      content: { 'application/json': { schema: idOf(okSchema) ? ref(idOf(okSchema)!) : toSchema(okSchema) } },
    },
    400: problem('Malformed JSON, or a body, path or query that fails the schema'),
    404: problem('Unknown game or route'),
    429: problem('Throttled'),
    503: problem('The store is unavailable or throttled; see Retry-After'),
  };
  if (route.method === 'POST')
    responses[413] = problem(
      `Body over ${route.name === 'checkReplay' ? REPLAY_BODY_LIMIT : BODY_LIMIT} bytes`,
    );
  if (shape.game) {
    responses[401] = problem('No bearer token (reads of a finished game are public)');
    responses[403] = problem('A token that does not open this game');
  }
  if (shape.write) {
    responses[409] = problem('Lost a race with other writes (carries currentVersion)');
    responses[412] = problem('If-Match names another version (carries currentVersion)');
  }
  if (shape.write || route.name === 'checkReplay' || route.name === 'createGame') {
    responses[422] = problem(
      'An illegal move (carries the rule), undo/redo with nothing to do, or a finished game',
    );
  }
  return {
    operationId: route.name,
    summary: route.summary,
    ...(shape.game ? { security: [{ bearer: [] }] } : {}),
    parameters,
    ...(shape.body
      ? {
          requestBody: {
            required: route.name !== 'createGame',
            content: { 'application/json': { schema: ref(idOf(shape.body)!) } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 description, generated from the route table and the zod schemas that validate requests. */
export function openApiDocument(): Json {
  const registry = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const toSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Json;
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, toSchema) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Klondike',
      version: '1.0.0',
      description:
        'Event-sourced Klondike solitaire: draw three, three passes by default. Errors are RFC 9457 problem details; ' +
        `their types are ${(Object.keys(PROBLEM_TYPES) as ProblemType[]).map(problemUri).join(', ')}.`,
    },
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(registry.schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [
          id,
          schema,
        ]),
      ),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token returned by POST /games' },
      },
    },
  };
}
