import {
  type Command,
  decide,
  evolve,
  type GameEvent,
  type GameState,
  gameOver,
  isViolation,
  RULES,
  stateAt,
  toView,
  type Violation,
} from '../domain/index.js';
import { authorize } from './http/auth.js';
import { httpHandler } from './http/handler.js';
import { fingerprint, idempotencyKey, ifMatch, preconditionFailed, REPLAYED } from './http/preconditions.js';
import { Problem } from './http/problem.js';
import { parseBody, parseWith, type Request } from './http/request.js';
import { etag, gameJson, type Response } from './http/respond.js';
import { EmptyBody, GamePath } from './schemas.js';
import { append, KEYS_KEPT, type Loaded, loadGame, readEvents } from './store/events.js';
import { forget, remember, remembered } from './store/recent.js';

/** Tries of one command when other writers keep taking the next version first. */
export const MAX_ATTEMPTS = 5;

const now = () => new Date().toISOString();

export const notFound = (id: string) => new Problem('not-found', `There is no game ${JSON.stringify(id)}.`);

export async function loadOrNotFound(id: string, upTo?: number): Promise<Loaded> {
  const loaded = await loadGame(id, upTo);
  if (!loaded) throw notFound(id);
  return loaded;
}

/** 404 for a version the game has not reached. */
export const versionNotReached = (latest: number, asked: number) =>
  new Problem('not-found', `The game is at version ${latest}; there is no version ${asked} yet.`, {
    currentVersion: latest,
  });

/** Reads of a game in play need its token; once it is won or resigned they are public. */
export function authorizeRead(request: Request, loaded: Loaded): void {
  if (loaded.state.status === 'playing') authorize(request, loaded.tokenHash);
}

/** A 422 for a broken rule. About a stored game, it carries the game's version (and ETag). */
export function illegal(
  violation: Violation,
  extra: Record<string, unknown> = {},
  version?: number,
): Problem {
  return new Problem(
    'illegal-move',
    violation.detail,
    {
      rule: violation.rule,
      ruleText: RULES[violation.rule],
      ...(version === undefined ? {} : { currentVersion: version }),
      ...extra,
    },
    version === undefined ? {} : { etag: etag(version) },
  );
}

/** The state a past version had: folded from the log (for replays of Idempotency-Keys). */
async function stateAtVersion(id: string, loaded: Loaded, version: number): Promise<GameState> {
  if (version === loaded.state.version) return loaded.state;
  const events = await readEvents(id, 0, version);
  return stateAt(
    events.map((stored) => stored.event),
    version,
  );
}

/**
 * The moves a write makes on a state: commands to decide in order, or a refusal. Most routes make
 * one; autoplay and autocomplete make several, appended as ordinary events.
 */
export type Plan = (state: GameState) => readonly Command[] | Problem;

/**
 * The flow of one write: load (one bounded Query, or the state this container wrote last),
 * authorize, check If-Match and the Idempotency-Key, decide, append with conditional puts. A lost
 * race is decided again on the new state; after MAX_ATTEMPTS it is answered 409. Nothing is
 * written unless the answer is 200, and every refusal is decided on a fresh read.
 */
export async function runCommand(
  request: Request,
  route: string,
  command: Command,
  body: unknown,
): Promise<Response> {
  return runPlan(request, route, body, () => [command]);
}

export async function runPlan(request: Request, route: string, body: unknown, plan: Plan): Promise<Response> {
  const id = request.pathParameters.id!;
  const expected = ifMatch(request);
  const keyName = idempotencyKey(request);
  const key = keyName === undefined ? undefined : { key: keyName, fingerprint: fingerprint(route, body) };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; ) {
    const cached = remembered(id);
    let loaded = cached ?? (await loadOrNotFound(id));
    /** A refusal from a remembered state may be stale: read afresh and decide again. */
    const refuse = (problem: Problem) => {
      if (!cached) throw problem;
      forget(id);
    };
    authorize(request, loaded.tokenHash);
    const { state } = loaded;
    const seen = key && loaded.keys.get(key.key);
    if (key && seen) {
      if (seen.fingerprint !== key.fingerprint) {
        throw new Problem(
          'idempotency-key-reused',
          `Idempotency-Key ${JSON.stringify(key.key)} was used for another request on this game.`,
        );
      }
      const first = await stateAtVersion(id, loaded, seen.version);
      return gameJson(200, toView(first, id, state.status !== 'playing'), seen.version, REPLAYED);
    }
    if (expected && !expected.matches(state.version)) {
      refuse(preconditionFailed(state.version, expected));
      continue;
    }
    const planned = decidePlan(state, plan);
    if (planned instanceof Problem) {
      refuse(planned);
      continue;
    }
    // The first append decides the race; the rest follow it. Each event carries the key, so a
    // retry finds the last one. A later append that loses a race ends the plan where it stands.
    let written = 0;
    for (const [event, next] of planned) {
      if (!(await append(id, { event, state: next, at: now(), ...(key ? { key } : {}), loaded }))) break;
      loaded = afterAppend(loaded, next, key);
      written++;
    }
    if (written > 0 || planned.length === 0) {
      if (written < planned.length) forget(id);
      else remember(id, loaded);
      return gameJson(200, toView(loaded.state, id), loaded.state.version);
    }
    // Another write took this version: read afresh, and check If-Match again on what is there now.
    forget(id);
    if (!cached) attempt++;
  }
  const current = (await loadOrNotFound(id)).state.version;
  throw new Problem(
    'conflict',
    `Other writes kept changing the game; tried ${MAX_ATTEMPTS} times. Nothing was written.`,
    { currentVersion: current },
    { etag: etag(current) },
  );
}

/** The events of a plan, each with the state after it; or the refusal of its first illegal step. */
function decidePlan(state: GameState, plan: Plan): [GameEvent, GameState][] | Problem {
  // Checked before planning, so a plan with nothing to do is refused on a finished game too.
  const over = gameOver(state);
  if (over) return illegal(over, {}, state.version);
  const commands = plan(state);
  if (commands instanceof Problem) return commands;
  const steps: [GameEvent, GameState][] = [];
  let current = state;
  for (const command of commands) {
    const event = decide(current, command);
    if (isViolation(event)) return illegal(event, {}, state.version);
    current = evolve(current, event);
    steps.push([event, current]);
  }
  return steps;
}

/** What a load would now return, after this container appended `state`. */
function afterAppend(loaded: Loaded, state: GameState, key?: { key: string; fingerprint: string }): Loaded {
  if (!key) return { ...loaded, state };
  const keys = new Map(loaded.keys);
  keys.set(key.key, { key: key.key, version: state.version, fingerprint: key.fingerprint });
  for (const [name, record] of keys) if (record.version <= state.version - KEYS_KEPT) keys.delete(name);
  return { ...loaded, state, keys };
}

/** The handler of a write route without a body of its own: its plan decides what it appends. */
export const planHandler = (route: string, plan: Plan) =>
  httpHandler(route, async (request) => {
    parseWith(GamePath, request.pathParameters, 'path');
    const body = parseBody(request, EmptyBody, {});
    return runPlan(request, route, body, plan);
  });

/** Undo, redo and resign: one command each. */
export const commandHandler = (type: 'undo' | 'redo' | 'resign') => planHandler(type, () => [{ type }]);
