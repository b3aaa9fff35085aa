/**
 * The one table of routes. The CDK stack makes one Lambda function per entry, and the local runtime
 * serves the same entries with the same handlers, so the two cannot drift apart.
 */
export interface Route {
  /** Stable name: the handler file is `functions/handlers/<name>.ts`, exporting `handler`. */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'ANY';
  /** API Gateway path syntax: `{id}` is a path parameter; `$default` takes every request no route matches. */
  readonly path: string;
  /** What the function may do to the table: `read` (Query/GetItem) or `write` (also PutItem). */
  readonly access: 'none' | 'read' | 'write';
  /** Whether it reads the read models (the players' games and statistics); only the projector writes them. */
  readonly readModels?: 'read';
  /** The read models' index it queries, if any: `byStatus` (a player's games by status) or `byRank` (leaderboards). */
  readonly readIndex?: 'byStatus' | 'byRank';
  /**
   * The only items of the event table its handler touches, by their partition key (a pattern with
   * `*`): in AWS its grant holds only for them (an IAM condition on `dynamodb:LeadingKeys`).
   */
  readonly eventKeys?: string;
  readonly summary: string;
  /** Largest request body in bytes (default BODY_LIMIT). */
  readonly bodyLimit?: number;
  /**
   * For routes anyone may call that can cost seconds of CPU: their own, lower throttle in AWS, this
   * share of the rate and burst the stage gives each route, so that a flood of them costs less.
   */
  readonly throttleShare?: number;
  /**
   * Whether it deals games under an Idempotency-Key: its function learns the creation secret that
   * keys their records (functions/store/creations.ts).
   */
  readonly creates?: true;
  /**
   * Whether it runs the solver, seconds of CPU on one thread: in AWS its function gets a whole vCPU
   * (1,769 MB) rather than a third of one, so the solver's budgets mean there what they mean on a
   * laptop core.
   */
  readonly solver?: true;
}

/**
 * A route's time limit, in Lambda and in the local runtime's containers: the fold of a game is
 * CPU-bound, and the solver stops after at most 2.5 s; 10 s is far above p99.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;
/** API Gateway's own limit on a request: its body, and its wait for the function (docs/api.md). */
export const GATEWAY_TIMEOUT_MS = 30_000;

/** Request body limits (docs/api.md, Errors). */
export const BODY_LIMIT = 16 * 1024;
export const REPLAY_BODY_LIMIT = 256 * 1024;

/** The partition keys of the players' chosen names in the event table: `profile#<sha256(sub)>`. */
export const PROFILE_KEY_PREFIX = 'profile#';

export const ROUTES: readonly Route[] = [
  {
    name: 'createGame',
    method: 'POST',
    path: '/games',
    access: 'write',
    summary: 'Deal a new game',
    // Open to anyone, and a winnable deal is up to 2.5 s of solving.
    throttleShare: 0.25,
    creates: true,
    solver: true,
  },
  {
    name: 'getGame',
    method: 'GET',
    path: '/games/{id}',
    access: 'read',
    summary: 'The view now, or at ?at=N',
  },
  { name: 'playMove', method: 'POST', path: '/games/{id}/moves', access: 'write', summary: 'Apply one move' },
  {
    name: 'undo',
    method: 'POST',
    path: '/games/{id}/undo',
    access: 'write',
    summary: 'Undo the last move in effect',
  },
  {
    name: 'redo',
    method: 'POST',
    path: '/games/{id}/redo',
    access: 'write',
    summary: 'Redo the last undone move',
  },
  { name: 'resign', method: 'POST', path: '/games/{id}/resign', access: 'write', summary: 'End the game' },
  {
    name: 'listEvents',
    method: 'GET',
    path: '/games/{id}/events',
    access: 'read',
    summary: 'The event log, paged',
  },
  {
    name: 'replay',
    method: 'GET',
    path: '/games/{id}/replay',
    access: 'read',
    summary: 'Frames for a range of versions',
  },
  {
    name: 'hint',
    method: 'GET',
    path: '/games/{id}/hint',
    access: 'read',
    summary: 'A good next move, from what the player can see',
    // Up to 2 s of solving, for anyone with a game (a token is one anonymous POST /games away).
    throttleShare: 0.25,
    solver: true,
  },
  {
    name: 'analysis',
    method: 'GET',
    path: '/games/{id}/analysis',
    access: 'read',
    summary: 'For a finished game: could the deal be won, how, and until when',
    // Public once the game is over, and up to 2.5 s of solving.
    throttleShare: 0.25,
    solver: true,
  },
  {
    name: 'autoplay',
    method: 'POST',
    path: '/games/{id}/autoplay',
    access: 'write',
    summary: 'Play every safe move to the foundations',
    solver: true,
  },
  {
    name: 'autocomplete',
    method: 'POST',
    path: '/games/{id}/autocomplete',
    access: 'write',
    summary: 'Play a provably won game to the end',
    // Up to 2.5 s of solving, for anyone with a game, as the hint.
    throttleShare: 0.25,
    solver: true,
  },
  {
    name: 'myGames',
    method: 'GET',
    path: '/me/games',
    access: 'none',
    readModels: 'read',
    readIndex: 'byStatus',
    summary: "The signed-in player's games, newest first",
  },
  {
    name: 'myStats',
    method: 'GET',
    path: '/me/stats',
    access: 'none',
    readModels: 'read',
    summary: "The signed-in player's statistics",
  },
  {
    name: 'checkReplay',
    method: 'POST',
    path: '/replays',
    access: 'none',
    summary: 'Check a history; nothing stored',
    bodyLimit: REPLAY_BODY_LIMIT,
    // Open to anyone, and folds up to 256 KiB of moves.
    throttleShare: 0.25,
  },
  {
    name: 'getDaily',
    method: 'GET',
    path: '/daily',
    access: 'none',
    readModels: 'read',
    readIndex: 'byRank',
    summary: "Today's daily deal: its date, rules and standing, and the player's own",
  },
  {
    name: 'createDailyGame',
    method: 'POST',
    path: '/daily/games',
    access: 'write',
    summary: "The signed-in player's game on today's deal (one a day)",
    creates: true,
    // The first request of a day that nothing prepared proves its deal winnable.
    solver: true,
  },
  {
    name: 'leaderboard',
    method: 'GET',
    path: '/daily/{date}/leaderboard',
    access: 'read',
    readModels: 'read',
    readIndex: 'byRank',
    summary: "A day's won games, ranked",
  },
  {
    name: 'getProfile',
    method: 'GET',
    path: '/me/profile',
    access: 'read',
    eventKeys: `${PROFILE_KEY_PREFIX}*`,
    summary: 'The name the signed-in player is shown under',
  },
  {
    name: 'putProfile',
    method: 'PUT',
    path: '/me/profile',
    access: 'write',
    eventKeys: `${PROFILE_KEY_PREFIX}*`,
    summary: 'Choose the name the leaderboards show',
  },
  { name: 'openapi', method: 'GET', path: '/openapi.json', access: 'none', summary: 'This API, described' },
  {
    name: 'notFound',
    method: 'ANY',
    path: '$default',
    access: 'none',
    summary: 'Any other request: 404 as problem+json',
  },
];

/** API Gateway's route key: `METHOD /path`, or `$default`. */
export const routeKey = (route: Route): string =>
  route.path === '$default' ? '$default' : `${route.method} ${route.path}`;

/** The handler module of a route, relative to the project root. */
export const handlerEntry = (route: Route): string => `functions/handlers/${route.name}.ts`;

/** Environment variable that names the table, in Lambda and locally. */
export const TABLE_ENV = 'TABLE_NAME';
/** The projector: not a route, a consumer of the event table's change stream. */
export const PROJECTOR_ENTRY = 'functions/projector/handler.ts';
/** Not a route either: run every hour by a schedule, it prepares the daily deals ahead of time. */
export const PREPARE_DAILY_ENTRY = 'functions/schedule/prepareDaily.ts';

/** Optional: a DynamoDB-compatible endpoint (the local runtime's dynalite). */
export const ENDPOINT_ENV = 'DYNAMODB_ENDPOINT';

/** The largest body a route takes. */
export const bodyLimit = (route: Route): number => route.bodyLimit ?? BODY_LIMIT;

/** A route by its name (handlers know their own). */
export function routeNamed(name: string): Route {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route named ${name}`);
  return route;
}
