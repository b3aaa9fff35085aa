/**
 * infra/local/node-support.ts turns off the AWS SDK's NodeVersionSupportWarning and nothing else.
 * Each case is a fresh Node without the SDK's variable (vitest's own setup sets it for this
 * process), which builds a DynamoDB client, then emits a warning of its own.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling.js';

const SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

function stderrOf(first: string): string {
  const script = [
    first,
    "const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');",
    "new DynamoDBClient({ region: 'local' }).destroy();",
    "process.emitWarning('a warning of our own');",
  ].join('\n');
  const env = { ...process.env };
  delete env[SWITCH];
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr;
}

// The SDK warns on Node older than 22 only: there, the control case shows the test can see it.
const warnsHere = Number(process.versions.node.split('.')[0]) < 22;

describe('the AWS SDK Node version warning', () => {
  it.runIf(warnsHere)('is printed by the SDK on this Node when nothing turns it off', () => {
    expect(stderrOf('')).toMatch(/NodeVersionSupportWarning/);
  });

  it('is gone once node-support is imported first, and other warnings still show', () => {
    const stderr = stderrOf("await import('./infra/local/node-support.ts');");
    expect(stderr).not.toMatch(/NodeVersionSupportWarning/);
    expect(stderr).toMatch(/Warning: a warning of our own/);
  });
});
