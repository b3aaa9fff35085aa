import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesOf } from '../../scripts/api-types.js';
import { useLocalApi } from '../support/local.js';

const ctx = useLocalApi();

describe("client/openapi.d.ts (the clients' generated API types)", () => {
  it('is what openapi-typescript makes of the GET /openapi.json the local runtime serves now', async () => {
    const served = await ctx.api.get('/openapi.json');
    expect(served.status).toBe(200);
    const fresh = await apiTypesOf(served.body);
    // Not toEqual on the whole text: a stale file is a fact to fix, not a 1,000-line diff to read.
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    expect(committed === fresh, 'client/openapi.d.ts is stale: run `npm run api-types`').toBe(true);
  });

  it('knows every path the API describes, so a new route reaches the clients', async () => {
    const served = await ctx.api.get('/openapi.json');
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    for (const path of Object.keys(served.body.paths)) expect(committed).toContain(`"${path}": {`);
  });
});
