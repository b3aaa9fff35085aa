/**
 * `npm run bundle-report`: bundles every handler of the route table exactly as the stack does
 * (infra/bundling.ts holds the one set of esbuild options), then reports each bundle's minified
 * size and its cold module-load time against a bundle holding only the DynamoDB document client.
 *
 * Load time: a fresh `node` per measurement imports the bundle once (with --enable-source-maps,
 * as deployed) and prints how long the import took; the table shows the median of the runs.
 * Runs are interleaved across bundles so that a busy machine slows all of them alike.
 * The bundles target Node 24 (the Lambda runtime); the timing runs on the local Node.
 *
 * Goals: at most 600 KB per handler, and a load time at most 1.2 times the SDK-only bundle's.
 * Exits 1 when a goal is missed or a handler does not bundle.
 *
 *   npm run bundle-report [-- --runs 9] [--root <another checkout>]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { handlerEntry, ROUTES, TABLE_ENV } from '../functions/routes.js';
import { ESBUILD_OPTIONS, PROJECT_ROOT } from '../infra/bundling.js';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';

const SIZE_LIMIT = 600 * 1024;
const LOAD_RATIO_LIMIT = 1.2;
const BASELINE = 'SDK only (baseline)';

/** What every handler needs at least: the document client and the commands the store uses. */
const BASELINE_SOURCE = `
export { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
`;

interface Bundle {
  readonly name: string;
  readonly file?: string;
  readonly bytes?: number;
  readonly error?: string;
  readonly timings: number[];
}

const USAGE = 'npm run bundle-report [-- --runs 7] [--root <another checkout>]';

async function bundle(
  root: string,
  name: string,
  outdir: string,
  entry: { file: string } | { source: string },
): Promise<Bundle> {
  const outfile = join(outdir, name, 'index.mjs');
  try {
    await build({
      ...ESBUILD_OPTIONS,
      mainFields: [...ESBUILD_OPTIONS.mainFields],
      external: [...ESBUILD_OPTIONS.external],
      absWorkingDir: root,
      outfile,
      logLevel: 'silent',
      ...('file' in entry
        ? { entryPoints: [entry.file] }
        : { stdin: { contents: entry.source, resolveDir: root, loader: 'ts' as const } }),
    });
    return { name, file: outfile, bytes: statSync(outfile).size, timings: [] };
  } catch (error) {
    return {
      name,
      error: error instanceof Error ? error.message.split('\n')[0] : String(error),
      timings: [],
    };
  }
}

/** Milliseconds a fresh Node process spends importing the file, or an error message. */
function loadTime(file: string): number | string {
  const script = [
    'const start = performance.now();',
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'process.stdout.write(String(performance.now() - start));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      [TABLE_ENV]: 'bundle-report',
      AWS_REGION: 'us-east-1',
      LOG_LEVEL: 'SILENT',
    },
    timeout: 30_000,
  });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms))
    return (run.stderr || `exit ${run.status}`).trim().split('\n')[0]!;
  return ms;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<number> {
  const { values } = parseScriptArgs(
    { options: { runs: { type: 'string', default: '7' }, root: { type: 'string' } } },
    USAGE,
  );
  const runs = wholeNumber('runs', values.runs, 1, 50, USAGE);
  const root = values.root ?? PROJECT_ROOT;
  if (!existsSync(join(root, 'functions', 'handlers'))) {
    console.error(`--root ${root} is no checkout of this project: it has no functions/handlers folder`);
    return 2;
  }
  const outdir = mkdtempSync(join(tmpdir(), 'klondike-bundles-'));
  try {
    const bundles: Bundle[] = [];
    bundles.push(await bundle(root, '_baseline', outdir, { source: BASELINE_SOURCE }));
    for (const route of ROUTES) {
      const file = join(root, handlerEntry(route));
      bundles.push(
        existsSync(file)
          ? await bundle(root, route.name, outdir, { file })
          : { name: route.name, error: `missing ${handlerEntry(route)}`, timings: [] },
      );
    }

    const errors = new Map<string, string>();
    for (let run = 0; run < runs; run++) {
      for (const b of bundles) {
        if (!b.file || errors.has(b.name)) continue;
        const result = loadTime(b.file);
        if (typeof result === 'number') b.timings.push(result);
        else errors.set(b.name, `load failed: ${result}`);
      }
    }

    const baseline = bundles[0]!;
    if (!baseline.file || baseline.timings.length === 0) {
      console.error(`baseline bundle failed: ${baseline.error ?? errors.get(baseline.name)}`);
      return 1;
    }
    const baselineMs = median(baseline.timings);

    const header = ['handler', 'size', 'load (median)', 'vs SDK', 'goals'];
    const rows: string[][] = [[BASELINE, kb(baseline.bytes!), `${baselineMs.toFixed(1)} ms`, '1.00x', '']];
    let failures = 0;
    for (const b of bundles.slice(1)) {
      const error = b.error ?? errors.get(b.name);
      if (error || b.bytes === undefined) {
        failures++;
        rows.push([b.name, '-', '-', '-', `FAIL ${error ?? 'no bundle'}`]);
        continue;
      }
      const ms = median(b.timings);
      const ratio = ms / baselineMs;
      const misses = [
        ...(b.bytes > SIZE_LIMIT ? [`size > ${kb(SIZE_LIMIT)}`] : []),
        ...(ratio > LOAD_RATIO_LIMIT ? [`load > ${LOAD_RATIO_LIMIT}x`] : []),
      ];
      if (misses.length > 0) failures++;
      rows.push([
        b.name,
        kb(b.bytes),
        `${ms.toFixed(1)} ms`,
        `${ratio.toFixed(2)}x`,
        misses.length ? `FAIL ${misses.join(', ')}` : 'ok',
      ]);
    }

    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: readonly string[]) =>
      cells
        .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join('  ')
        .trimEnd();
    console.log(
      `Bundles: esbuild ${ESBUILD_OPTIONS.format}, minified, target ${ESBUILD_OPTIONS.target}; ` +
        `load: median of ${runs} fresh processes on Node ${process.version} (${process.arch}), --enable-source-maps`,
    );
    console.log(`Goals: size <= ${kb(SIZE_LIMIT)}, load <= ${LOAD_RATIO_LIMIT}x the SDK-only bundle\n`);
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) console.log(line(row));
    console.log(failures === 0 ? '\nAll handlers meet the goals.' : `\n${failures} handler(s) miss a goal.`);
    return failures === 0 ? 0 : 1;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
