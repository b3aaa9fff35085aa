/**
 * The CDK app the CLI runs (cdk.json: `npx tsx infra/app.ts`).
 *
 *   npx cdk deploy -c stage=prod -c corsOrigins=https://cards.example.com
 *
 * Context keys: stage (dev|prod), corsOrigins, throttleRate, throttleBurst, logRetentionDays,
 * destroyOnRemoval (dev only), alarmTopicArn. See docs/operations.md. The stack is built in
 * ./build-app.ts, which also registers cdk-nag (AwsSolutionsChecks) as a validation plugin.
 */
import { buildApp } from './build-app.js';
import { CONTEXT_KEYS, ContextError } from './config.js';

try {
  const { app } = buildApp();
  // A key given with -c that the app does not read (a misspelling) would otherwise change nothing, silently.
  for (const key of Object.keys(app.node.getAllContext())) {
    if (/^[a-z]/.test(key) && !key.startsWith('aws:') && !(CONTEXT_KEYS as readonly string[]).includes(key))
      console.error(`warning: context ${key} is not one this app reads (${CONTEXT_KEYS.join(', ')})`);
  }
  app.synth();
} catch (error) {
  if (!(error instanceof ContextError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
