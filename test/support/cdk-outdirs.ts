/**
 * vitest's global setup: one folder for the cloud assemblies that the CDK tests synthesize
 * (test/infra/harness.ts), made before the tests and removed after them. Those tests share their
 * workers (vitest.config.ts, SHARING) and with them the apps the harness keeps, so an app may be
 * used by a file after the one that synthesized it: its folder must outlive that file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable that names the folder to the workers (they inherit the environment). */
export const CDK_OUTDIRS_ENV = 'KLONDIKE_TEST_CDK_OUTDIRS';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'klondike-cdk-'));
  process.env[CDK_OUTDIRS_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
