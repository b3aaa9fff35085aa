import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SolveBudget } from '../../domain/index.js';
import { handler as autocomplete } from '../../functions/handlers/autocomplete.js';
import { handler as createGame } from '../../functions/handlers/createGame.js';
import { handler as hint } from '../../functions/handlers/hint.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../../functions/routes.js';
import { SOLVER_MS, solverClock } from '../../functions/solver.js';
import { STORE_REQUEST_MS, storeCall, tableName, withStoreBudget } from '../../functions/store/client.js';
import { READ_TABLE_ENV } from '../../functions/store/readModels.js';
import { timeLimit } from '../../functions/timeScale.js';
import { type LocalStore, startLocalStore } from '../../infra/local/store.js';
import { gatewayEvent, parse } from '../support/gateway.js';

/**
 * A solver cut short by its deadline is the request running out of its own time: 503 `busy` with
 * Retry-After (docs/api.md), never a weaker answer, never `store-unavailable`, and never kept
 * as a key's first answer. The deadline is made to pass at once with a fake clock: the clock reads
 * the start once, then a time far past every deadline.
 *
 * The hint runs the real solver. Autocomplete's and a winnable creation's solvers, whose searches
 * here would end (won) before they first read the clock, are replaced for one request by one that
 * reads the clock and gives up, as the solver does at its deadline.
 */
const cut = vi.hoisted(() => ({ short: false }));
vi.mock('../../domain/index.js', async (importOriginal) => {
  const domain = await importOriginal<typeof import('../../domain/index.js')>();
  const givesUp = (budget: SolveBudget) => {
    budget.now?.();
    return null;
  };
  return {
    ...domain,
    autocomplete: (...args: Parameters<typeof domain.autocomplete>) =>
      cut.short ? givesUp(args[1]!) : domain.autocomplete(...args),
    winnableDeal: (...args: Parameters<typeof domain.winnableDeal>) =>
      cut.short ? givesUp(args[2]!) : domain.winnableDeal(...args),
  };
});

let store: LocalStore;
beforeAll(async () => {
  store = await startLocalStore();
  process.env[ENDPOINT_ENV] = store.endpoint;
  process.env[TABLE_ENV] = store.tableName;
  process.env[READ_TABLE_ENV] = store.readTableName;
});
afterAll(() => store.close());
afterEach(() => {
  vi.restoreAllMocks();
  cut.short = false;
});

/** From the next deadline on, every reading of the solver's clock is past it. */
function deadlinePassesAtOnce(): void {
  let readings = 0;
  vi.spyOn(solverClock, 'now').mockImplementation(() => (readings++ === 0 ? 0 : 1e9));
}

/** The solver's clock stands still: no deadline passes, however busy the machine (the budget is in nodes). */
function deadlineNeverPasses(): void {
  vi.spyOn(solverClock, 'now').mockReturnValue(0);
}

async function newGame(body: unknown) {
  const created = parse(await createGame(gatewayEvent({ method: 'POST', path: '/games', body })));
  return { id: created.id as string, headers: { authorization: `Bearer ${created.token}` } };
}

describe('a solver cut short by its deadline', () => {
  it('makes a hint 503 busy with Retry-After; on time, the same view gets its hint', async () => {
    // Seed 0's first position has no safe move and several choices: the hint samples deals.
    const { id, headers } = await newGame({ seed: 0 });
    const ask = () => hint(gatewayEvent({ path: `/games/${id}/hint`, pathParameters: { id }, headers }));
    deadlinePassesAtOnce();
    const late = await ask();
    expect(late.statusCode).toBe(503);
    expect(late.headers?.['retry-after']).toBe('1');
    expect(parse(late)).toMatchObject({ type: '/problems/busy', status: 503 });
    vi.restoreAllMocks();
    deadlineNeverPasses();
    const answered = await ask();
    expect(answered.statusCode).toBe(200);
    expect(parse(answered).move).not.toBeNull();
  });

  it("counts from the request's arrival: a hint that waited its whole time is 503 busy at once", async () => {
    const { id, headers } = await newGame({ seed: 0 });
    const ask = (arrivedAt: number) =>
      hint(gatewayEvent({ path: `/games/${id}/hint`, pathParameters: { id }, headers, arrivedAt }));
    // The real clocks: the request waited (for a cold start, or a busy solver worker) longer than
    // the hint's time, so the solver stops at its first reading of the clock.
    const late = await ask(Date.now() - timeLimit(SOLVER_MS.hint) - 1_000);
    expect(late.statusCode).toBe(503);
    expect(parse(late).type).toBe('/problems/busy');
    deadlineNeverPasses();
    const answered = await ask(Date.now());
    expect(answered.statusCode).toBe(200);
    expect(parse(answered).move).not.toBeNull();
  });

  it('makes autocomplete 503 busy, not 422, and the key keeps nothing: its retry solves again', async () => {
    const { id, headers } = await newGame({ seed: 0 });
    const post = () =>
      autocomplete(
        gatewayEvent({
          method: 'POST',
          path: `/games/${id}/autocomplete`,
          pathParameters: { id },
          headers: { ...headers, 'idempotency-key': 'autocomplete-cut-short' },
        }),
      );
    deadlinePassesAtOnce();
    cut.short = true;
    const late = await post();
    expect(late.statusCode).toBe(503);
    expect(parse(late).type).toBe('/problems/busy');
    vi.restoreAllMocks();
    cut.short = false;
    // Decided afresh: a deal with cards face down cannot be proved, and that refusal is kept.
    const retried = await post();
    expect(retried.statusCode).toBe(422);
    expect(parse(retried).type).toBe('/problems/not-winnable');
    expect(retried.headers?.['idempotent-replayed']).toBeUndefined();
  });

  it('makes a winnable creation 503 busy, and its retry under the same key deals', async () => {
    const create = () =>
      createGame(
        gatewayEvent({
          method: 'POST',
          path: '/games',
          body: { winnable: true },
          headers: { 'idempotency-key': '6b0f1f9e-7c1f-4c44-9d55-1d3c1f0e2a77' },
        }),
      );
    deadlinePassesAtOnce();
    cut.short = true;
    const late = await create();
    expect(late.statusCode).toBe(503);
    expect(late.headers?.['retry-after']).toBe('1');
    expect(parse(late).type).toBe('/problems/busy');
    vi.restoreAllMocks();
    deadlineNeverPasses();
    cut.short = false;
    expect((await create()).statusCode).toBe(201);
  });
});

describe("a request's store time", () => {
  it('counts its store calls only: seconds of solving between them are not charged to the store', async () => {
    const read = () =>
      storeCall((client, abortSignal) =>
        client.send(new GetCommand({ TableName: tableName(), Key: { pk: 'none', sk: 0 } }), { abortSignal }),
      );
    const real = performance.now.bind(performance);
    let solving = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => real() + solving);
    await withStoreBudget(async () => {
      await read();
      // A solver's time on the request's clock, well past the store's limit for a whole request.
      solving += 2 * timeLimit(STORE_REQUEST_MS);
      await expect(read()).resolves.toBeDefined();
    });
  });
});
