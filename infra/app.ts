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

buildApp().app.synth();
