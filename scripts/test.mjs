#!/usr/bin/env node
// `npm test`: type-check, lint and every vitest test, ending with the plain line CI reads:
// "N passed, M failed". Exits non-zero if any step fails. The checks run beside the tests (on a
// core the tests leave idle while they wait on their processes and browsers) and are printed after
// them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// package.json's engines: on an older Node the AWS SDK warns at its first client, and a test of
// `npm start`'s output says so. Refused at once, with the way to a Node that is supported.
const [major, minor] = process.versions.node.split('.').map(Number);
// 22.12 or a later 22, or 24 and later: vitest leaves 23 out, vite and rolldown need 22.12.
if (!((major === 22 && minor >= 12) || major >= 24)) {
  console.error(
    `npm test needs Node 22.12 or a later 22, or 24 and later (package.json engines); this is Node ${process.versions.node}.\n` +
      'To run it on Node 24 from the npm registry: PATH="$(bash .ci/node-path):$PATH" npm test',
  );
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

/** Runs a command with this terminal, without blocking the checks' output meanwhile. */
const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', shell: false });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** A check, run now with its output kept: resolves with what it printed and whether it passed. */
const check = (name, args) =>
  new Promise((resolve) => {
    const child = spawn(npx, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, output: `${output}${error.message}\n`, ok: false }));
    child.on('close', (code) => resolve({ name, output, ok: code === 0 }));
  });
// One checker thread each: TypeScript 7's parallel checkers each resolve the types their files share
// again, which costs about a fifth more CPU, and here the tests want the cores.
const checks = Promise.all([
  check('type-check', ['tsc', '--noEmit', '--singleThreaded', '-p', '.']),
  // The web client runs in a browser: its own project (DOM types, Preact's JSX).
  check('type-check the web client', ['tsc', '--noEmit', '--singleThreaded', '-p', 'client/web']),
  check('lint', ['biome', 'check', '.']),
]);

console.log('\n== tests');
const dir = mkdtempSync(join(tmpdir(), 'klondike-test-'));
const report = join(dir, 'report.json');
const status = await run(npx, [
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
  // A file that failed outside its tests (an import that throws, a hook) counts once; the suites
  // that merely hold a failed test do not count again.
  const failedOutsideTests = (json.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  failed = json.numFailedTests + failedOutsideTests;
} catch {
  failed++;
}
rmSync(dir, { recursive: true, force: true });
if (status !== 0 && failed === 0) failed = 1;
let failedSteps = 0;
for (const { name, output, ok } of await checks) {
  console.log(`\n== ${name}`);
  process.stdout.write(output);
  if (!ok) {
    console.error(`${name} failed`);
    failedSteps++;
  }
}
failed += failedSteps;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && status === 0 ? 0 : 1);
