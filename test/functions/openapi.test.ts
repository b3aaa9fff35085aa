import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { deal, deckFromSeed, fold, HOUSE_RULES, toView } from '../../domain/index.js';
import { openApiDocument } from '../../functions/openapi.js';
import * as responses from '../../functions/responses.js';
import { ROUTES } from '../../functions/routes.js';

describe('GET /openapi.json', () => {
  const document = openApiDocument() as { paths: Record<string, Record<string, unknown>> };

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
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

  it('says what the contract says: deals the service chooses, creation keys, If-Match', () => {
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
