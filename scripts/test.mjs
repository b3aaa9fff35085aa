#!/usr/bin/env node
// `npm test`: type-check, lint, then every vitest test, ending with the plain line CI reads:
// "N passed, M failed". Exits non-zero if any step fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// package.json's engines: on an older Node the AWS SDK warns at its first client, and a test of
// `npm start`'s output says so. Refused at once, with the way to a Node that is supported.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(
    `npm test needs Node 22 or later (package.json engines); this is Node ${process.versions.node}.\n` +
      'To run it on Node 24 from the npm registry: PATH="$(bash .ci/node-path):$PATH" npm test',
  );
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', shell: false }).status ?? 1;
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

let failedSteps = 0;
for (const [name, args] of [
  ['type-check', ['tsc', '--noEmit', '-p', '.']],
  // The web client runs in a browser: its own project (DOM types, Preact's JSX).
  ['type-check the web client', ['tsc', '--noEmit', '-p', 'client/web']],
  ['lint', ['biome', 'check', '.']],
]) {
  console.log(`\n== ${name}`);
  if (run(npx, args) !== 0) {
    console.error(`${name} failed`);
    failedSteps++;
  }
}

console.log('\n== tests');
const dir = mkdtempSync(join(tmpdir(), 'klondike-test-'));
const report = join(dir, 'report.json');
const status = run(npx, [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0) + (json.numFailedTestSuites ?? 0);
} catch {
  failed++;
}
rmSync(dir, { recursive: true, force: true });
if (status !== 0 && failed === 0) failed = 1;
failed += failedSteps;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && status === 0 ? 0 : 1);
