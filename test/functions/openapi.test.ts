import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { deal, deckFromSeed, fold, HOUSE_RULES, toView } from '../../domain/index.js';
import { handler } from '../../functions/handlers/openapi.js';
import { openApiDocument } from '../../functions/openapi.js';
import * as responses from '../../functions/responseSchemas.js';
import { ROUTES } from '../../functions/routes.js';
import { PROJECT_ROOT } from '../../infra/bundling.js';
import { gatewayEvent } from '../support/gateway.js';

describe('GET /openapi.json', () => {
  const document = openApiDocument() as { paths: Record<string, Record<string, unknown>> };

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes Redocly's recommended lint, as GET /openapi.json serves it: no error, no warning", async () => {
    const served = await handler(gatewayEvent({ path: '/openapi.json' }));
    expect(served.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'klondike-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, served.body!);
      const cli = join(PROJECT_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
      const lint = spawnSync(
        process.execPath,
        [cli, 'lint', file, '--extends=recommended', '--format=stylish', '--max-problems=1000'],
        {
          encoding: 'utf8',
          // Offline: no usage report, no check for a newer release.
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      const output = lint.stdout + lint.stderr;
      expect(lint.status, output).toBe(0);
      expect(output).toMatch(/Your API description is valid/);
      // Redocly passes a document with warnings too, and counts them after.
      expect(output).not.toMatch(/You have \d+ warnings?/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says who may call each operation: public ones say none', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods)) as {
      operationId: string;
      security?: unknown;
    }[];
    const security = Object.fromEntries(
      operations.map((operation) => [operation.operationId, operation.security]),
    );
    for (const open of ['checkReplay', 'openapi']) expect(security[open], open).toEqual([]);
    // Open to anyone, and a sign-in token sent must verify (401 otherwise).
    for (const either of ['createGame', 'getDaily', 'leaderboard'])
      expect(security[either], either).toEqual([{}, { signIn: [] }]);
    // A finished game's reads are public; its writes never are.
    for (const read of ['getGame', 'listEvents', 'replay', 'hint', 'analysis'])
      expect(security[read], read).toEqual([{}, { bearer: [] }, { signIn: [] }]);
    expect(security.playMove).toEqual([{ bearer: [] }, { signIn: [] }]);
    expect(security.myStats).toEqual([{ signIn: [] }]);
    expect(operations.every((operation) => Array.isArray(operation.security))).toBe(true);
  });

  it("declares what every route may answer besides its own: 413 for a body over its limit (a GET's too), 500 for a bug", () => {
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods as Record<string, { responses: object }>))
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(['413', '500']),
        );
  });

  it('says in JSON Schema what the handlers check beyond the types, where it can: a card once in a deck, a name not empty, no fields where none are taken', () => {
    const { components, paths } = document as any;
    expect(components.schemas.Deck.anyOf[0]).toMatchObject({ type: 'array', uniqueItems: true });
    expect(components.schemas.Profile.properties.name).toMatchObject({ minLength: 1 });
    expect(paths['/games/{id}/undo'].post.requestBody).toEqual({
      required: false,
      content: {
        'application/json': { schema: { type: 'object', additionalProperties: false, maxProperties: 0 } },
      },
    });
  });

  it('describes every route of the route table', () => {
    for (const route of ROUTES) {
      if (route.path === '$default') continue;
      expect(
        document.paths[route.path]?.[route.method.toLowerCase()],
        `${route.method} ${route.path}`,
      ).toBeDefined();
    }
  });

  it('says what docs/api.md says: deals the service chooses, creation keys, If-Match', () => {
    const { components, paths } = document as unknown as {
      components: { schemas: Record<string, { description?: string }> };
      paths: Record<string, Record<string, { parameters: { name: string; description?: string }[] }>>;
    };
    // The schemas' descriptions reach the document (they were dropped, and one was wrong).
    const create = components.schemas.CreateGame!.description ?? '';
    expect(create).toMatch(/cryptographic/);
    expect(create).toMatch(/seed: null/);
    expect(create).not.toMatch(/random seed/);
    expect(components.schemas.Analysis!.description).toMatch(/unknown/);
    const header = (path: string, method: string, name: string) =>
      paths[path]![method]!.parameters.find((parameter) => parameter.name === name)?.description ?? '';
    expect(header('/games', 'post', 'Idempotency-Key')).toMatch(/22 characters/);
    expect(header('/games/{id}/moves', 'post', 'Idempotency-Key')).toMatch(/Idempotent-Replayed/);
    const ifMatch = header('/games/{id}/moves', 'post', 'If-Match');
    for (const words of [/strong/, /W\//, /\*/, /400/, /412/]) expect(ifMatch).toMatch(words);
    // A sign-in token that does not verify is 401 on POST /games too (the game would be the player's).
    const responses = (document.paths['/games']!.post as { responses: Record<string, unknown> }).responses;
    expect(responses['401']).toBeDefined();
  });

  it('its View schema fits the views the domain makes, in play and finished', () => {
    const state = fold([deal(deckFromSeed(1), 1, HOUSE_RULES)]);
    expect(z.safeParse(responses.View, toView(state, 'g')).success).toBe(true);
    expect(z.safeParse(responses.View, toView(state, 'g', true)).success).toBe(true);
    expect(z.safeParse(responses.View, { ...toView(state, 'g'), status: 'lost' }).success).toBe(false);
  });
});
