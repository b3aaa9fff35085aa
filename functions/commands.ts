import {
  type Command,
  decide,
  evolve,
  type GameEvent,
  type GameState,
  gameOver,
  isViolation,
  tooLong,
} from '../domain/index.js';
import { nowIso } from './clock.js';
import { gameIdOf, illegal, loadOrNotFound, viewOf } from './games.js';
import { authorize, requireBearer } from './http/auth.js';
import { httpHandler } from './http/handler.js';
import {
  fingerprint,
  idempotencyKey,
  ifMatch,
  type Precondition,
  preconditionFailed,
  REPLAYED,
} from './http/preconditions.js';
import { keyReused, Problem } from './http/problem.js';
import { parseBody, type Request } from './http/request.js';
import { etag, gameJson, type Response } from './http/respond.js';
import { EmptyBody } from './requestSchemas.js';
import { type FirstAnswer, firstAnswer, keepAnswer } from './store/answers.js';
import { append, CONFLICT, type Keyed, type Loaded } from './store/events.js';

/** Tries of one command when other writers keep taking the next version first. */
export const MAX_ATTEMPTS = 5;

/**
 * What a write route does to a game: the commands to decide in order, or a refusal. Most routes
 * make one; autoplay and autocomplete make several, appended as ordinary events.
 */
export type Plan = (state: GameState) => readonly Command[] | Problem;

/**
 * The flow of one write, top to bottom (Emmett's handleCommand): load the game, check the token,
 * give the first answer again if the Idempotency-Key has one, decide, append with the expected
 * version. A lost race (another write took the next version) is decided again on the new state,
 * up to MAX_ATTEMPTS times, then answered 409.
 */
export async function handleCommand(
  request: Request,
  route: string,
  body: unknown,
  plan: Plan,
): Promise<Response> {
  const id = gameIdOf(request);
  const precondition = ifMatch(request);
  const name = idempotencyKey(request);
  const key = name === undefined ? undefined : { key: name, fingerprint: fingerprint(route, body) };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const loaded = await loadOrNotFound(id);
    await authorize(request, loaded);
    const first = key && (await firstAnswer(id, loaded, key));
    if (key && first) return answerAgain(id, loaded, key, first);
    const decided = decideWrite(loaded.state, precondition, plan);
    if (decided instanceof Problem || decided.length === 0) return answerUnchanged(id, loaded, key, decided);
    const appended = await append(id, decided, { expected: loaded, key, at: nowIso() });
    if (appended !== CONFLICT) return gameJson(200, viewOf(appended.state, id), appended.state.version);
  }
  const current = (await loadOrNotFound(id)).state.version;
  throw new Problem(
    'conflict',
    `Other writes kept changing the game; tried ${MAX_ATTEMPTS} times. Nothing was written.`,
    { currentVersion: current },
    { etag: etag(current) },
  );
}

/** The events a write appends, or why it is refused (If-Match, a finished game, a broken rule). */
function decideWrite(
  state: GameState,
  precondition: Precondition | undefined,
  plan: Plan,
): readonly GameEvent[] | Problem {
  if (precondition && !precondition.matches(state.version))
    return preconditionFailed(state.version, precondition);
  // Checked before planning, so a plan with nothing to do (an autoplay with no safe move) is
  // refused on a finished game, and on one at MAX_ACTIONS, too.
  const refused = gameOver(state) ?? tooLong(state);
  if (refused) return illegal(refused, {}, state.version);
  const commands = plan(state);
  if (commands instanceof Problem) return commands;
  const events: GameEvent[] = [];
  let current = state;
  for (const command of commands) {
    const event = decide(current, command);
    if (isViolation(event)) return illegal(event, {}, state.version);
    events.push(event);
    current = evolve(current, event);
  }
  return events;
}

/**
 * An answer that appends nothing: a refusal, or a plan with nothing to do. Under a key, a 422 or a
 * no-op is kept as the key's first answer, so a retry gets it again even after the game has moved
 * on. A 412 is not: it says the request's If-Match is stale, and the retry that follows it names
 * another version (the same key must not pin the 412 on it).
 */
async function answerUnchanged(
  id: string,
  loaded: Loaded,
  key: Keyed | undefined,
  outcome: Problem | readonly GameEvent[],
): Promise<Response> {
  const problem = outcome instanceof Problem ? outcome : undefined;
  if (key && problem?.type !== 'precondition-failed') {
    const answer: FirstAnswer = {
      fingerprint: key.fingerprint,
      version: loaded.state.version,
      ...(problem ? { refusal: problem.toRecord() } : {}),
    };
    const stands = await keepAnswer(id, key, answer);
    if (stands !== answer) return answerAgain(id, loaded, key, stands);
    // A write under the same key, sent at once with this one, may have landed since the game was
    // loaded: its events are the key's first answer, and this request is answered by them.
    const now = await loadOrNotFound(id);
    const landed = now.keys.get(key.key);
    if (landed) return answerAgain(id, now, key, landed);
  }
  if (problem) throw problem;
  return gameJson(200, viewOf(loaded.state, id), loaded.state.version);
}

/** The first answer to a key, given again (with Idempotent-Replayed); another request under it is 422. */
async function answerAgain(id: string, loaded: Loaded, key: Keyed, first: FirstAnswer): Promise<Response> {
  if (first.fingerprint !== key.fingerprint) {
    throw keyReused(' on this game', { currentVersion: loaded.state.version });
  }
  if (first.refusal) throw Problem.fromRecord(first.refusal, REPLAYED);
  // The view at that version: from what the load read when it lies above the load's base (a retry
  // reads no more than the request it repeats), else a bounded load through the nearest snapshot
  // below it, never the whole log.
  const state = loaded.stateAt(first.version) ?? (await loadOrNotFound(id, first.version)).state;
  return gameJson(200, viewOf(state, id), first.version, REPLAYED);
}

/** The handler of a write route without a body of its own: its plan decides what it appends. */
export const planHandler = (route: string, plan: Plan) =>
  httpHandler(route, async (request) => {
    gameIdOf(request);
    requireBearer(request);
    const body = parseBody(request, EmptyBody, {});
    return handleCommand(request, route, body, plan);
  });

/** Undo, redo and resign: one command each. */
export const commandHandler = (type: 'undo' | 'redo' | 'resign') => planHandler(type, () => [{ type }]);
