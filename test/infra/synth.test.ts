/**
 * The one real synthesis: runs infra/app.ts as the CDK CLI would (CDK_OUTDIR, CDK_CONTEXT_JSON
 * from cdk.json), with every function bundled by the local esbuild, the web client built by the
 * local Vite, and every validation plugin
 * on (cdk-nag and CloudFormation's schema check). A stack that does not synthesize, a handler
 * that does not bundle, or a finding nobody acknowledged fails here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes.js';
import { PROJECT_ROOT } from '../../infra/bundling.js';

// Made when the tests run, not when the file is only listed (vitest list).
let outdir = '';
beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'klondike-synth-'));
});
afterAll(() => outdir && rmSync(outdir, { recursive: true, force: true }));

function runApp(): Promise<{ code: number | null; output: string }> {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8'));
  const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['infra/app.ts'], {
      cwd: PROJECT_ROOT,
      // As `npx cdk synth` runs it: the CLI passes the account and region of the caller's credentials
      // (a finding named with a concrete region must still be acknowledged).
      env: {
        ...process.env,
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify(cdkJson.context ?? {}),
        CDK_DEFAULT_ACCOUNT: '123456789012',
        CDK_DEFAULT_REGION: 'eu-west-1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('cdk synth (bundling and validation on)', () => {
  it('synthesizes the app with every handler bundled and nothing left to acknowledge', async () => {
    const { code, output } = await runApp();
    expect(code, output.slice(-4000)).toBe(0);

    const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8'));
    const stackName = Object.keys(manifest.artifacts).find(
      (name) => manifest.artifacts[name].type === 'aws:cloudformation:stack',
    )!;
    expect(stackName).toBe('Klondike-dev');

    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    const violations = (report.pluginReports ?? []).flatMap((r: any) =>
      (r.violations ?? []).map((v: any) => `${r.pluginName ?? r.summary?.pluginName}: ${v.ruleName}`),
    );
    expect(violations).toEqual([]);

    const template = JSON.parse(readFileSync(join(outdir, `${stackName}.template.json`), 'utf8'));
    const assets = JSON.parse(readFileSync(join(outdir, `${stackName}.assets.json`), 'utf8'));
    // The route functions, the projector and the daily deals' preparation; the CDK's own handlers
    // (BucketDeployment's, and the one that empties the site's bucket) are not ours.
    const functions = Object.entries(template.Resources as Record<string, any>)
      .filter(
        ([id, r]) =>
          r.Type === 'AWS::Lambda::Function' &&
          !id.startsWith('CustomCDKBucketDeployment') &&
          !id.startsWith('CustomS3AutoDeleteObjects'),
      )
      .map(([, r]) => r);
    expect(functions).toHaveLength(ROUTES.length + 2);
    for (const own of ['Projector', 'Prepares'])
      expect(
        functions.filter((fn) => String(fn.Properties.Description).startsWith(own)),
        own,
      ).toHaveLength(1);
    // Each function its own bundle: one asset shared by all would run one handler everywhere.
    expect(new Set(functions.map((fn) => fn.Properties.Code.S3Key)).size).toBe(functions.length);
    const bundles = functions.map((fn) => {
      const hash = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
      const dir = join(outdir, assets.files[hash].source.path);
      expect(existsSync(join(dir, 'index.mjs.map')), dir).toBe(true);
      return join(dir, 'index.mjs');
    });

    // Each bundle loads as an ES module on Node and exports the handler Lambda calls (index.handler).
    const probe = `for (const f of ${JSON.stringify(bundles.map((b) => pathToFileURL(b).href))}) {
      const m = await import(f); process.stdout.write(typeof m.handler + '\\n'); }`;
    const loaded = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        TABLE_NAME: 'synth-test',
        READ_TABLE_NAME: 'synth-test-read-models',
        AWS_REGION: 'us-east-1',
        LOG_LEVEL: 'SILENT',
      },
    });
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout.trim().split('\n')).toEqual(bundles.map(() => 'function'));
    // Each route's bundle is built from its own handler, and holds no other route's (its source map
    // lists what went into it).
    for (const route of ROUTES) {
      const at = Object.keys(template.Resources).filter((id) =>
        new RegExp(`^${route.name}[0-9A-F]{8}$`).test(id),
      );
      expect(at, route.name).toHaveLength(1);
      const map = JSON.parse(
        readFileSync(`${bundles[functions.indexOf(template.Resources[at[0]!])]!}.map`, 'utf8'),
      );
      const handlers = (map.sources as string[]).flatMap(
        (source) => /functions\/handlers\/(\w+)\.ts$/.exec(source)?.[1] ?? [],
      );
      expect(handlers, route.name).toEqual([route.name]);
    }
    // The projector's bundle is built from PROJECTOR_ENTRY (its log line is in it, and in no route's).
    const projectorBundle =
      bundles[functions.findIndex((fn) => String(fn.Properties.Description).startsWith('Projector'))]!;
    expect(readFileSync(projectorBundle, 'utf8')).toContain('projection failed');
    const routeBundles = bundles.filter((bundle) => bundle !== projectorBundle);
    expect(routeBundles).toHaveLength(functions.length - 1);
    for (const bundle of routeBundles)
      expect(readFileSync(bundle, 'utf8')).not.toContain('projection failed');

    // The web client, built by Vite during synthesis: its page and every asset the page names.
    const deployments = Object.values(template.Resources as Record<string, any>).filter(
      (r) => r.Type === 'Custom::CDKBucketDeployment',
    );
    expect(deployments).toHaveLength(3);
    const staged = (deployment: any) =>
      join(
        outdir,
        assets.files[String(deployment.Properties.SourceObjectKeys[0]).replace(/\.zip$/, '')].source.path,
      );
    const site = staged(deployments.find((d) => d.Properties.Exclude?.[0] === 'index.html'));
    const page = readFileSync(join(site, 'index.html'), 'utf8');
    const named = [...page.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(named.some((path) => path.endsWith('.js'))).toBe(true);
    expect(named.some((path) => path.endsWith('.css'))).toBe(true);
    for (const path of named) expect(existsSync(join(site, path)), path).toBe(true);
    // config.json is staged on its own, its deploy-time names as markers the deployment fills in.
    const config = staged(deployments.find((d) => d.Properties.DistributionPaths?.[0] === '/config.json'));
    const text = readFileSync(join(config, 'config.json'), 'utf8');
    expect(JSON.parse(text).signIn).toMatchObject({ kind: 'oauth', scope: 'openid email' });
    expect(text).toMatch(/"clientId":"<<marker:0xbaba:\d+>>"/);
    expect(text).toContain('.amazoncognito.com/oauth2/token"');
  });
});
