/**
 * `npm run rebuild-projections`: builds every read model (players' games and statistics, the daily
 * attempts and leaderboards) again from the event log alone, in place (functions/projector/rebuild.ts).
 *
 *   npm run rebuild-projections                     the local runtime at http://127.0.0.1:3000 (npm start)
 *   npm run rebuild-projections -- --url URL        another local runtime
 *   npm run rebuild-projections -- --data DIR       a --data folder no runtime is using
 *   npm run rebuild-projections -- --tables         the tables TABLE_NAME and READ_TABLE_NAME (AWS with
 *                                                   the usual credentials, or DYNAMODB_ENDPOINT)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeUrl } from '../client/api.js';
import { rebuildReadModels } from '../functions/projector/rebuild.js';
import { ENDPOINT_ENV, TABLE_ENV } from '../functions/routes.js';
import { READ_TABLE_ENV } from '../functions/store/readModels.js';
import { parseScriptArgs } from '../infra/local/args.js';
import { FolderInUse, followed, LOCAL_READ_TABLE, startLocalStore } from '../infra/local/store.js';

const { values } = parseScriptArgs(
  {
    options: { url: { type: 'string' }, data: { type: 'string' }, tables: { type: 'boolean' } },
  },
  'npm run rebuild-projections -- [--url URL | --data DIR | --tables]',
);

async function rebuild(): Promise<{ deleted: number; games: number; players: number }> {
  if (values.tables) {
    // Against a local store (DYNAMODB_ENDPOINT), the read-model table is the one npm start makes.
    if (process.env[ENDPOINT_ENV]) process.env[READ_TABLE_ENV] ||= LOCAL_READ_TABLE;
    for (const name of [TABLE_ENV, READ_TABLE_ENV])
      if (!process.env[name]) throw new Error(`${name} is not set`);
    return rebuildReadModels();
  }
  if (values.data) {
    // A folder kept beside an outside store holds no games: its tables are rebuilt with --tables.
    const outside = followed(values.data);
    if (outside) {
      const [endpoint, table] = outside.split(' ');
      throw new Error(
        `${values.data} keeps the change feed of the table ${table} at ${endpoint}, not its games: rebuild there with ${ENDPOINT_ENV}=${endpoint} ${TABLE_ENV}=${table} npm run rebuild-projections -- --tables`,
      );
    }
    // A folder npm start never kept games in is a mistyped path: no store is made there.
    if (!existsSync(join(values.data, 'CURRENT')))
      throw new Error(`${values.data} holds no games of npm start -- --data (no store was made there)`);
    const store = await startLocalStore({ dataDir: values.data });
    process.env[ENDPOINT_ENV] = store.endpoint;
    process.env[TABLE_ENV] = store.tableName;
    process.env[READ_TABLE_ENV] = store.readTableName;
    try {
      return await rebuildReadModels();
    } finally {
      await store.close();
    }
  }
  // The runtime's address as the clients take it: a slash at its end, or no scheme, is the same.
  const url = normalizeUrl(values.url ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`);
  const answer = await fetch(`${url}/dev/rebuild-projections`, { method: 'POST' }).catch(() => {
    throw new Error(
      `no local runtime answers at ${url}: start one with npm start, or see --data and --tables`,
    );
  });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { deleted: number; games: number; players: number };
}

try {
  const { deleted, games, players } = await rebuild();
  console.log(
    `Read models rebuilt from the log: ${deleted} ${deleted === 1 ? 'item' : 'items'} deleted, ${games} ${games === 1 ? 'game' : 'games'} of ${players} ${players === 1 ? 'player' : 'players'} projected.`,
  );
} catch (error) {
  console.error(
    error instanceof FolderInUse ? error.message : `Could not rebuild: ${(error as Error).message}`,
  );
  process.exit(1);
}
