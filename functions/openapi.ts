import * as z from 'zod/mini';
import { PROBLEM_TYPES, type ProblemType, problemUri } from './http/problem.js';
import * as schemas from './requestSchemas.js';
import * as responses from './responseSchemas.js';
import { bodyLimit, ROUTES, type Route } from './routes.js';

type Json = Record<string, unknown>;

/**
 * Names and descriptions of the schemas, for the document only. They live here, not on the
 * schemas, so the handlers do not pay for them at load time.
 */
const docs = z.registry<{ id?: string; description?: string; example?: unknown }>();
docs.add(schemas.CardCode, {
  id: 'CardCode',
  description: 'Rank A 2..9 T J Q K, then suit C D H S: TH is the ten of hearts.',
  example: 'TH',
});
docs.add(schemas.SourcePile, { id: 'SourcePile', description: 'waste, t1..t7, or a foundation fC fD fH fS' });
docs.add(schemas.TargetPile, {
  id: 'TargetPile',
  description: "t1..t7, fC fD fH fS, or 'foundation': the foundation of the moving card's suit",
});
docs.add(schemas.MoveCount, {
  description: 'Cards taken from the top of a tableau column (default 1; 1 from the waste or a foundation)',
});
docs.add(schemas.Move, { id: 'Move' });
docs.add(schemas.HistoryStep, { id: 'HistoryStep', description: 'A move, or undo, redo or resign' });
docs.add(schemas.Rules, {
  id: 'Rules',
  description: 'Rule options; defaults: draw 3, passes 3 (null is unlimited), foundationToTableau true',
});
docs.add(schemas.Seed, { description: 'A numbered deal: 0..4294967295 (docs/rules.md gives the shuffle)' });
docs.add(schemas.Deck, {
  id: 'Deck',
  description: '52 card codes in dealing order, or the 156-digit ShootMe Klondike-Solver string',
});
docs.add(schemas.CreateGame, {
  id: 'CreateGame',
  description:
    'A numbered deal (seed), a deck, or neither: then the service draws the deal, a permutation from a cryptographic source, never a 32-bit seed, and the game has seed: null (its deck is shown once it ends). winnable: true (no seed or deck with it) deals one the solver proved winnable, drawn the same way. And rule options',
});
docs.add(schemas.ReplayRequest, { id: 'ReplayRequest' });
docs.add(responses.PlayedMove, {
  id: 'PlayedMove',
  description: 'A move as recorded: concrete piles, explicit count',
});
docs.add(responses.RevealedCards, {
  description: "Only once the game is won or resigned (a daily game's, once its day is over too)",
});
docs.add(responses.View, { id: 'View', description: 'A game as a player sees it; every pile bottom to top' });
docs.add(responses.CreatedGame, {
  id: 'CreatedGame',
  description: 'The view, and the bearer token of the game (shown once)',
});
docs.add(responses.Event, { id: 'Event' });
docs.add(responses.EventPage, {
  id: 'EventPage',
  description: '`next` is the `after` of the next page, or null',
});
docs.add(responses.ReplayFrames, {
  id: 'ReplayFrames',
  description: '`next` is the `from` of the rest of the range, or null',
});
docs.add(responses.ReplayResult, { id: 'ReplayResult' });
docs.add(responses.Hint, {
  id: 'Hint',
  description: 'A next move from what the player can see, or null and why',
});
docs.add(responses.Analysis, {
  id: 'Analysis',
  description:
    'With every card known: whether the deal was winnable, a winning line from the deal (null unless winnable), and the last version whose position could still be won (null if none; unknown when the solver ran out of time)',
});
docs.add(responses.ProblemDetails, { id: 'Problem', description: 'RFC 9457 problem details' });
docs.add(responses.GameSummary, {
  id: 'GameSummary',
  description: "One of a player's games: nothing hidden while in play (seed only once it has ended)",
});
docs.add(responses.MyGames, {
  id: 'MyGames',
  description: 'Newest first; `next` is the `cursor` of the next page, or null',
});
docs.add(responses.PlayerStats, {
  id: 'PlayerStats',
  description:
    "A player's record, from their games: winRate = won / (won + resigned), streaks in the order games ended; daily: their daily deals, a streak counting consecutive UTC days with a daily win",
});
docs.add(responses.DailyStanding, {
  id: 'DailyStanding',
  description:
    "A player's game on the day's deal: actions (every action, undo and redo too), moves in effect, elapsedMs from its first action to its last, and its rank once won (null before)",
});
docs.add(responses.Daily, {
  id: 'Daily',
  description:
    "Today's daily deal (UTC): the same deal for everyone, under the house rules; players and won count the day's attempts so far; me is the signed-in player's standing, or null",
});
docs.add(responses.LeaderboardEntry, {
  id: 'LeaderboardEntry',
  description:
    'A won game: ranked by fewest actions, then the shortest elapsedMs, then the earliest finishedAt (equal on all three share a rank). gameId (and with it the replay) is null until the day is over',
});
docs.add(responses.Leaderboard, {
  id: 'Leaderboard',
  description: '`next` is the `cursor` of the next page, or null',
});
docs.add(responses.PlayerProfile, {
  id: 'PlayerProfile',
  description: 'name: the name the player chose (null for none); displayName: the name the leaderboards show',
});
docs.add(schemas.Profile, {
  id: 'Profile',
  description:
    "1 to 24 characters (trimmed): letters of any script (at most 4 marks each), digits, spaces and - _ . '; not shaped like another player's derived name (Player 7KQ2ZD)",
});

/** The view, for the operations whose own `responses` shadow the module's name. */
const VIEW = responses.View;

const ref = (schema: z.ZodMiniType) => ({ $ref: `#/components/schemas/${docs.get(schema)!.id}` });

const problem = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: ref(responses.ProblemDetails) } },
});

const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};

const versionHeader = {
  ETag: { description: 'The game\'s version, quoted: "<version>"', schema: { type: 'string' } },
};
const replayedHeader = {
  'Idempotent-Replayed': {
    description: 'true when this is the first answer to an Idempotency-Key, given again',
    schema: { type: 'string', enum: ['true'] },
  },
};

const locationHeader = {
  Location: { description: "The game's address: /games/{id}", schema: { type: 'string' } },
};
const challenge = {
  'WWW-Authenticate': {
    description: 'Bearer realm="klondike", with error="invalid_token" for a token that does not verify',
    schema: { type: 'string' },
  },
};
/**
 * API Gateway's own throttling, before any function runs: its JSON, not a problem (docs/api.md,
 * "throttled"); the local runtime does not throttle.
 */
const THROTTLED = {
  description: "Throttled by API Gateway (the stage's rate limits): its own body, not a problem",
  content: {
    'application/json': {
      schema: { type: 'object', properties: { message: { type: 'string', example: 'Too Many Requests' } } },
    },
  },
};

/** What each route refuses with 422 (a refusal is a first answer: a retry under its key gets it again). */
const KEY_REUSED = 'the Idempotency-Key was used for another request (idempotency-key-reused)';
const FINISHED = 'a finished game (rule game-over)';
/** Every write to a game of 10,000 actions, whatever it is: an illegal-move whose rule says why. */
const TOO_LONG = 'a game of 10,000 actions (illegal-move, rule game-too-long)';

const REFUSALS: Record<string, string> = {
  createGame: `Only when ${KEY_REUSED}`,
  playMove: `An illegal move (carries the rule and ruleText), ${FINISHED}, ${TOO_LONG}, or ${KEY_REUSED}`,
  undo: `Nothing to undo (nothing-to-undo), ${FINISHED}, ${TOO_LONG}, or ${KEY_REUSED}`,
  redo: `Nothing to redo (nothing-to-redo), ${FINISHED}, ${TOO_LONG}, or ${KEY_REUSED}`,
  resign: `A finished game (rule game-over), ${TOO_LONG}, or ${KEY_REUSED}`,
  autoplay: `A finished game (rule game-over), ${TOO_LONG}, or ${KEY_REUSED}`,
  autocomplete: `The win cannot be proved from what the player can see (not-winnable), ${FINISHED}, ${TOO_LONG}, or ${KEY_REUSED}`,
  checkReplay:
    'A step of the history breaks a rule: carries its index, the step (move), the rule and ruleText. No key is remembered here',
  hint: 'A daily game while its day lasts (rule daily-in-progress)',
  analysis:
    'The game is still in play (game-in-play), or a daily game while its day lasts (rule daily-in-progress)',
  createDailyGame: `Only when ${KEY_REUSED}`,
};

const IDEMPOTENCY_KEY =
  '1..64 visible ASCII characters. The same request again under the same key returns the first answer, with Idempotent-Replayed: true, and appends nothing; the key with another request is 422.';
const CREATION_KEY =
  " Without a sign-in token its retry returns the game's token, so the key is a secret: at least 22 characters (send a random UUID), else 400. A signed-in player's keys are their own.";
const IF_MATCH =
  'Compared strongly (RFC 9110): "3" matches version 3, W/"3" matches nothing, a list "2", "3" matches any member, * matches any existing game. Another version is 412 (nothing written); a malformed value is 400.';

interface Shape {
  body?: z.ZodMiniType;
  path?: z.ZodMiniObject;
  query?: z.ZodMiniObject;
  ok?: [number, z.ZodMiniType];
  game?: boolean;
  /** For signed-in players only: a JWT from the configured issuer. */
  player?: boolean;
  /** Open to anyone, and a sign-in token makes it the player's (their game, their standing). */
  signInOptional?: boolean;
  write?: boolean;
}

/**
 * What an operation accepts (OpenAPI's `security`): a game's token or the owner's sign-in token (or
 * nothing, to read a finished game); a
 * sign-in token; nothing or a sign-in token (`{}` is the alternative of no credentials); or, for a
 * public operation, nothing (`[]`, said explicitly so that no operation is left undeclared).
 */
function securityOf(shape: Shape, route: Route): Json[] {
  // A finished game's reads are public (a daily game's once its day is over): no credentials is
  // one of the alternatives there, and the 401's description says when it is not enough.
  if (shape.game && route.method === 'GET') return [{}, { bearer: [] }, { signIn: [] }];
  if (shape.game) return [{ bearer: [] }, { signIn: [] }];
  if (shape.player) return [{ signIn: [] }];
  if (shape.signInOptional) return [{}, { signIn: [] }];
  return [];
}

/** Per route: the request body, query parameters and the success response. */
const SHAPES: Record<string, Shape> = {
  createGame: { body: schemas.CreateGame, ok: [201, responses.CreatedGame], signInOptional: true },
  getGame: { query: schemas.ViewQuery, ok: [200, responses.View], game: true },
  playMove: { body: schemas.Move, ok: [200, responses.View], game: true, write: true },
  undo: { ok: [200, responses.View], game: true, write: true },
  redo: { ok: [200, responses.View], game: true, write: true },
  resign: { ok: [200, responses.View], game: true, write: true },
  listEvents: { query: schemas.EventsQuery, ok: [200, responses.EventPage], game: true },
  replay: { query: schemas.ReplayQuery, ok: [200, responses.ReplayFrames], game: true },
  hint: { ok: [200, responses.Hint], game: true },
  analysis: { ok: [200, responses.Analysis], game: true },
  autoplay: { ok: [200, responses.View], game: true, write: true },
  autocomplete: { ok: [200, responses.View], game: true, write: true },
  checkReplay: { body: schemas.ReplayRequest, ok: [200, responses.ReplayResult] },
  myGames: { query: schemas.MyGamesQuery, ok: [200, responses.MyGames], player: true },
  myStats: { ok: [200, responses.PlayerStats], player: true },
  getDaily: { ok: [200, responses.Daily], signInOptional: true },
  createDailyGame: { ok: [201, responses.CreatedGame], player: true },
  leaderboard: {
    path: schemas.DailyPath,
    query: schemas.LeaderboardQuery,
    ok: [200, responses.Leaderboard],
    signInOptional: true,
  },
  getProfile: { ok: [200, responses.PlayerProfile], player: true },
  putProfile: { body: schemas.Profile, ok: [200, responses.PlayerProfile], player: true },
  openapi: {},
};

function operation(route: Route): Json {
  const shape = SHAPES[route.name]!;
  const parameters: Json[] = [];
  if (shape.game)
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: 'The id POST /games gave; anything that cannot be one names no game (404)',
      schema: { type: 'string', pattern: schemas.GAME_ID.source },
    });
  for (const name of Object.keys(shape.path?.def.shape ?? {})) {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string', format: 'date' } });
  }
  for (const [name, field] of Object.entries(shape.query?.def.shape ?? {})) {
    const { $schema: _, ...schema } = z.toJSONSchema(field as z.ZodMiniType, { io: 'output' });
    const description = schema.type === 'integer' ? 'A plain decimal integer' : undefined;
    parameters.push({ name, in: 'query', required: false, schema, ...(description ? { description } : {}) });
  }
  // PUT /me/profile needs no key: sending the same name again sets the same name.
  if (route.method === 'POST') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        route.name === 'checkReplay'
          ? 'Checked for its form (1..64 visible ASCII characters, else 400) and not remembered: the same body gets the same answer'
          : IDEMPOTENCY_KEY + (route.name === 'createGame' ? CREATION_KEY : ''),
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,64}$' },
    });
  }
  if (shape.write)
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: IF_MATCH,
      schema: { type: 'string', example: '"12"' },
    });
  const [status, okSchema] = shape.ok ?? [200, undefined];
  // About a game: its version as ETag on success, and on a problem that names it (currentVersion).
  const aboutGame = shape.game || route.name === 'createGame' || route.name === 'createDailyGame';
  // POST /replays checks a key's form and remembers nothing.
  const kept = route.method === 'POST' && route.name !== 'checkReplay' ? replayedHeader : {};
  const successHeaders = {
    ...(aboutGame ? versionHeader : {}),
    ...(route.name === 'createGame' || route.name === 'createDailyGame' ? locationHeader : {}),
    ...kept,
  };
  const gameProblem = (description: string, headers: Json = {}) =>
    problem(description, { ...(shape.game ? versionHeader : {}), ...headers });
  const responses: Json = {
    [status]: {
      description: 'Success',
      ...(Object.keys(successHeaders).length > 0 ? { headers: successHeaders } : {}),
      content: { 'application/json': { schema: okSchema ? ref(okSchema) : { type: 'object' } } },
    },
    400: gameProblem('Malformed JSON, or a body, path or query that fails the schema'),
    404: gameProblem(
      !shape.game
        ? 'Unknown route'
        : route.method === 'GET' && (route.name === 'getGame' || route.name === 'replay')
          ? 'Unknown game, or a version (?at, ?from) the game has not reached'
          : 'Unknown game',
    ),
    408: problem('The request was still arriving after 30 s'),
    429: THROTTLED,
    503: problem(
      'Retry later: the store is unavailable, throttled or slow (type store-unavailable), the request ran out of its own time (busy), the service is starting (starting), or the sign-in issuer could not be reached (sign-in-unavailable). A write answered so may still have landed: retry it with the same Idempotency-Key',
      retryAfter,
    ),
  };
  // Every route reads what body comes, a GET's too, up to its limit.
  responses[413] = problem(`Body over ${bodyLimit(route)} bytes (carries the limit)`);
  responses[500] = problem(
    'A bug (type internal). A write answered so may have landed: retry it with the same Idempotency-Key',
  );
  if (shape.game) {
    responses[401] = problem(
      route.method === 'GET'
        ? "No bearer token while the game is in play (a finished game's reads are public; a daily game's once its day is over), or a sign-in token that does not verify"
        : 'No bearer token, or a sign-in token that does not verify',
      challenge,
    );
    responses[403] = problem(
      "A token that does not open this game: another game's, another player's sign-in token, or any sign-in token on an anonymous game",
    );
  }
  if (shape.player) responses[401] = problem('No sign-in token, or one that does not verify', challenge);
  if (route.name === 'createGame') {
    responses[401] = problem(
      'A sign-in token that does not verify, or a game token (without Authorization, the game is anonymous)',
      challenge,
    );
  }
  if (shape.signInOptional)
    responses[401] ??= problem(
      'A sign-in token that does not verify (without one, the answer is public)',
      challenge,
    );
  if (shape.write) {
    responses[409] = gameProblem('Lost a race with other writes (carries currentVersion)');
    responses[412] = gameProblem('If-Match names another version (carries currentVersion)');
  }
  const refusal = REFUSALS[route.name];
  if (refusal) responses[422] = gameProblem(refusal, kept);
  if (route.name === 'createDailyGame') {
    responses[200] = {
      description: "The player already has a game on today's deal: that game as it stands (no token)",
      headers: { ...versionHeader, ...locationHeader, ...kept },
      content: { 'application/json': { schema: ref(VIEW) } },
    };
  }
  if (route.name === 'leaderboard')
    responses[404] = problem('A day after today, or before the first daily deal');
  if (route.name === 'putProfile')
    responses[409] = problem('Other changes of the name kept landing at the same moment: try again');
  return {
    operationId: route.name,
    summary: route.summary,
    security: securityOf(shape, route),
    parameters,
    ...(shape.body
      ? {
          requestBody: {
            required: route.name !== 'createGame',
            content: { 'application/json': { schema: ref(shape.body) } },
          },
        }
      : route.method === 'POST'
        ? // A write that takes no fields still reads its body: none, or an empty object.
          {
            requestBody: {
              required: false,
              content: {
                'application/json': {
                  schema: { type: 'object', additionalProperties: false, maxProperties: 0 },
                },
              },
            },
          }
        : {}),
    responses,
  };
}

/** The OpenAPI 3.1 description, generated from the route table and the zod schemas that validate requests. */
export function openApiDocument(): Json {
  const { schemas: components } = z.toJSONSchema(docs, {
    // The registry gives the names, and (only when named as the metadata too) the descriptions.
    metadata: docs,
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    // What the handlers check beyond the schemas, where JSON Schema can say it: a card once in a
    // deck, a name not empty.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === schemas.DeckCards) jsonSchema.uniqueItems = true;
      if (zodSchema === schemas.Profile.def.shape.name) jsonSchema.minLength = 1;
    },
  }) as {
    schemas: Record<string, Json>;
  };
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    if (route.path === '$default') continue; // not a path: the 404 for everything else
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Klondike',
      version: '1.0.0',
      description:
        'Event-sourced Klondike solitaire: draw three, three passes by default. Errors are RFC 9457 problem details; ' +
        `their types are ${(Object.keys(PROBLEM_TYPES) as ProblemType[]).map(problemUri).join(', ')}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: the API is where this document is served (the stage's URL, or the local runtime's).
    servers: [{ url: '/', description: 'The service that serves this document' }],
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(components).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema]),
      ),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token returned by POST /games' },
        signIn: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A sign-in token (OpenID Connect, RS256 or ES256) from the configured issuer: the player is its sub. It opens the player's own games, and /me",
        },
      },
    },
  };
}
