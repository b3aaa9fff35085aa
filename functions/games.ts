import {
  type Command,
  decide,
  evolve,
  type GameState,
  isViolation,
  RULES,
  stateAt,
  toView,
  type Violation,
} from '../domain/index.js';
import { authorize } from './http/auth.js';
import { httpHandler } from './http/handler.js';
import { fingerprint, idempotencyKey, ifMatch, preconditionFailed } from './http/preconditions.js';
import { Problem } from './http/problem.js';
import { parseBody, parseWith, type Request } from './http/request.js';
import { gameJson, type Response } from './http/respond.js';
import { EmptyBody, GamePath } from './schemas.js';
import { append, type Loaded, loadGame, readEvents } from './store/events.js';

/** Tries of one command when other writers keep taking the next version first. */
export const MAX_ATTEMPTS = 5;

const now = () => new Date().toISOString();

export const notFound = (id: string) => new Problem('not-found', `There is no game ${JSON.stringify(id)}.`);

export async function loadOrNotFound(id: string, upTo?: number): Promise<Loaded> {
  const loaded = await loadGame(id, upTo);
  if (!loaded) throw notFound(id);
  return loaded;
}

/** Reads of a game in play need its token; once it is won or resigned they are public. */
export function authorizeRead(request: Request, loaded: Loaded): void {
  if (loaded.state.status === 'playing') authorize(request, loaded.tokenHash);
}

export function illegal(violation: Violation, extra: Record<string, unknown> = {}): Problem {
  return new Problem('illegal-move', violation.detail, {
    rule: violation.rule,
    ruleText: RULES[violation.rule],
    ...extra,
  });
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
 * The flow of one write: load (one bounded Query), authorize, check If-Match and the
 * Idempotency-Key, decide, append with a conditional put. A lost race is decided again on the new
 * state; after MAX_ATTEMPTS it is answered 409. Nothing is written unless the answer is 200.
 */
export async function runCommand(
  request: Request,
  route: string,
  command: Command,
  body: unknown,
): Promise<Response> {
  const id = request.pathParameters.id!;
  const expected = ifMatch(request);
  const keyName = idempotencyKey(request);
  const key = keyName === undefined ? undefined : { key: keyName, fingerprint: fingerprint(route, body) };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const loaded = await loadOrNotFound(id);
    authorize(request, loaded.tokenHash);
    const { state } = loaded;
    if (key) {
      const seen = loaded.keys.get(key.key);
      if (seen && seen.fingerprint !== key.fingerprint) {
        throw new Problem(
          'idempotency-key-reused',
          `Idempotency-Key ${JSON.stringify(key.key)} was used for another request on this game.`,
        );
      }
      if (seen) {
        const first = await stateAtVersion(id, loaded, seen.version);
        return gameJson(200, toView(first, id, state.status !== 'playing'), seen.version, {
          'idempotent-replayed': 'true',
        });
      }
    }
    if (expected !== undefined && expected !== state.version)
      throw preconditionFailed(state.version, expected);
    const event = decide(state, command);
    if (isViolation(event)) throw illegal(event, { currentVersion: state.version });
    const next = evolve(state, event);
    if (await append(id, { event, state: next, at: now(), ...(key ? { key } : {}), loaded })) {
      return gameJson(200, toView(next, id), next.version);
    }
    // Another write took this version. With If-Match the precondition no longer holds.
    if (expected !== undefined) throw preconditionFailed(state.version + 1, expected);
  }
  const current = (await loadOrNotFound(id)).state.version;
  throw new Problem(
    'conflict',
    `Other writes kept changing the game; tried ${MAX_ATTEMPTS} times. Nothing was written.`,
    {
      currentVersion: current,
    },
  );
}

/** The handler of a command route without a body of its own: undo, redo, resign. */
export const commandHandler = (type: 'undo' | 'redo' | 'resign') =>
  httpHandler(type, async (request) => {
    parseWith(GamePath, request.pathParameters, 'path');
    const body = parseBody(request, EmptyBody, {});
    return runCommand(request, type, { type }, body);
  });
