import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { deckFromSeed, formatCard } from '../../domain/index.js';
import { type Answer, newGame, useLocalApi } from '../support/local.js';

const server = useLocalApi();

let game: Awaited<ReturnType<typeof newGame>>;

beforeAll(async () => {
  game = await newGame(server.api, { seed: 2024 });
});

const json = fc.oneof(
  fc.json(),
  fc.record(
    {
      type: fc.constantFrom('draw', 'recycle', 'move', 'undo', 'x'),
      from: fc.string(),
      to: fc.string(),
      count: fc.oneof(fc.integer(), fc.double(), fc.string()),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      seed: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
      deck: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 60 })),
      rules: fc.object(),
    },
    { requiredKeys: [] },
  ),
);
const segment = fc.oneof(
  fc.constantFrom(
    'games',
    'moves',
    'undo',
    'redo',
    'resign',
    'events',
    'replay',
    'replays',
    'openapi.json',
    '..',
    '%00',
    '%ZZ',
  ),
  fc.webSegment(),
);

describe('fuzz: no request gets a 5xx', () => {
  it('random bodies, headers, methods and paths', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.array(segment, { minLength: 0, maxLength: 4 }),
        fc.boolean(),
        fc.oneof(
          json.map((value) => JSON.stringify(value)),
          fc.string({ maxLength: 200 }),
        ),
        fc.record(
          {
            authorization: fc.oneof(
              fc.constant(`Bearer ${game.token}`),
              fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
              fc.string({ maxLength: 40 }),
            ),
            'if-match': fc.oneof(fc.constant('"0"'), fc.string({ maxLength: 10 })),
            'idempotency-key': fc.string({ maxLength: 80 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
            'content-type': fc.constantFrom('application/json', 'text/plain', 'application/octet-stream'),
          },
          { requiredKeys: [] },
        ),
        fc.string({ maxLength: 30 }),
        async (method, segments, onGame, body, headers, query) => {
          const path = onGame ? `/games/${game.id}/${segments.join('/')}` : `/${segments.join('/')}`;
          const cleanHeaders = Object.fromEntries(
            Object.entries(headers).filter(([, v]) => /^[\x20-\x7e]*$/.test(v)),
          );
          let answer: Answer;
          try {
            answer = await server.api.call(
              method,
              `${path}?${encodeURI(query)}`,
              method === 'GET' ? { headers: cleanHeaders } : { raw: body, headers: cleanHeaders },
            );
          } catch (error) {
            if (error instanceof TypeError) return; // fetch itself refused to send it
            throw error;
          }
          expect(answer.status, `${method} ${path} ${body} → ${answer.text}`).toBeLessThan(500);
          if (answer.status >= 400)
            expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('no response about a game in play shows a hidden card', () => {
  it('scans every route’s answers while playing', async () => {
    const { id, auth, created } = await newGame(server.api, { seed: 99 });
    const deck = deckFromSeed(99).map(formatCard);
    const answers: Answer[] = [];
    const hiddenNow = (view: any) => {
      const seen = new Set<string>([
        ...view.waste,
        ...Object.values(view.foundations).flat(),
        ...view.tableau.flatMap((c: any) => c.cards),
      ] as string[]);
      return deck.filter((card) => !seen.has(card));
    };
    let view = created.body;
    for (let i = 0; i < 30 && view.status === 'playing'; i++) {
      const move = view.legalMoves.find((m: any) => m.type === 'move') ??
        view.legalMoves[0] ?? { type: 'recycle' };
      const answer = await server.api.post(`/games/${id}/moves`, move, auth);
      answers.push(
        answer,
        await server.api.post(`/games/${id}/moves`, { type: 'move', from: 't1', to: 't1' }, auth),
      );
      if (answer.status === 200) view = answer.body;
      if (i % 7 === 6) answers.push(await server.api.post(`/games/${id}/undo`, undefined, auth));
    }
    answers.push(
      await server.api.get(`/games/${id}`, auth),
      await server.api.get(`/games/${id}?at=0`, auth),
      await server.api.get(`/games/${id}?at=5`, auth),
      await server.api.get(`/games/${id}/events?limit=1000`, auth),
      await server.api.get(`/games/${id}/replay`, auth),
    );
    const final = (await server.api.get(`/games/${id}`, auth)).body;
    const hidden = hiddenNow(final);
    expect(hidden.length).toBeGreaterThan(0);
    for (const answer of answers) {
      // Cards hidden now were hidden at every earlier version too (this line never undoes a reveal).
      for (const card of hidden) expect(answer.text).not.toContain(`"${card}"`);
      expect(answer.text).not.toMatch(/"deck"|"seed"|hiddenCards/);
    }
  });
});
