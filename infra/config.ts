/**
 * The stack's settings, read from CDK context (`cdk.json`, or `-c key=value` on the command line).
 * Context given with `-c` arrives as a string, context in cdk.json keeps its JSON type, so every
 * reader accepts both. A bad value stops synthesis with a message that names the key.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

export type StageName = 'dev' | 'prod';

export interface StageConfig {
  readonly stage: StageName;
  /** Origins allowed by CORS; `*` allows any (the API uses bearer tokens, never cookies). */
  readonly corsOrigins: readonly string[];
  /** Steady-state requests per second for each route (the stage's default route settings). */
  readonly throttleRate: number;
  /** Requests a route accepts in a burst above the steady rate. */
  readonly throttleBurst: number;
  /** Retention of the functions' and the API's log groups. */
  readonly logRetention: RetentionDays;
  /** When true: no deletion protection and the table is deleted with the stack. Dev only. */
  readonly destroyOnRemoval: boolean;
  /** Optional SNS topic (ARN) that every alarm notifies. */
  readonly alarmTopicArn?: string;
}

/** Defaults per stage: dev is small and cheap; prod keeps its data and logs longer. */
export const STAGE_DEFAULTS: Readonly<Record<StageName, Omit<StageConfig, 'stage'>>> = {
  dev: {
    corsOrigins: ['*'],
    throttleRate: 20,
    throttleBurst: 40,
    logRetention: RetentionDays.ONE_WEEK,
    destroyOnRemoval: false,
  },
  prod: {
    corsOrigins: ['*'],
    throttleRate: 100,
    throttleBurst: 200,
    logRetention: RetentionDays.ONE_MONTH,
    destroyOnRemoval: false,
  },
};

/** The context keys this app reads (documented in docs/operations.md). */
export const CONTEXT_KEYS = [
  'stage',
  'corsOrigins',
  'throttleRate',
  'throttleBurst',
  'logRetentionDays',
  'destroyOnRemoval',
  'alarmTopicArn',
] as const;

type ContextKey = (typeof CONTEXT_KEYS)[number];
type Context = Partial<Record<ContextKey, unknown>>;

/** A context value the stack cannot be built with: said in one line, with no stack trace (`infra/app.ts`). */
export class ContextError extends Error {
  override readonly name = 'ContextError';
}

const fail = (key: string, value: unknown, expected: string): never => {
  throw new ContextError(`context ${key}=${JSON.stringify(value)}: expected ${expected}`);
};

function stageOf(value: unknown): StageName {
  if (value === undefined) return 'dev';
  if (value === 'dev' || value === 'prod') return value;
  return fail('stage', value, '"dev" or "prod"');
}

function positiveNumber(key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return fail(key, value, 'a positive number');
  return n;
}

function flag(key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fail(key, value, 'true or false');
}

function origins(value: unknown, fallback: readonly string[]): readonly string[] {
  if (value === undefined) return fallback;
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  const cleaned = list?.map((o) => (typeof o === 'string' ? o.trim() : '')).filter((o) => o !== '');
  if (!cleaned || cleaned.length === 0 || cleaned.length !== list?.length) {
    return fail('corsOrigins', value, 'origins separated by commas, or a JSON array of origins');
  }
  for (const origin of cleaned) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      fail('corsOrigins', value, `"*" or origins like https://example.com (got ${origin})`);
    }
  }
  return cleaned;
}

const RETENTIONS = new Set<number>(
  Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'),
);

function retention(value: unknown, fallback: RetentionDays): RetentionDays {
  if (value === undefined) return fallback;
  const days = positiveNumber('logRetentionDays', value, fallback);
  if (!RETENTIONS.has(days)) {
    return fail('logRetentionDays', value, `one of ${[...RETENTIONS].join(', ')} (CloudWatch Logs values)`);
  }
  return days as RetentionDays;
}

/** An SNS topic's ARN: partition, region, account, name (the region is checked by the stack). */
const SNS_TOPIC = /^arn:aws[a-z-]*:sns:[a-z]{2}(-[a-z]+)+-\d:\d{12}:[\w-]{1,256}$/;

/** The region of an SNS topic's ARN (one `configFromContext` took). */
export const topicRegion = (arn: string): string => arn.split(':')[3]!;

/** The configuration from a plain context object (what tests pass in). */
export function configFromContext(context: Context): StageConfig {
  const stage = stageOf(context.stage);
  const defaults = STAGE_DEFAULTS[stage];
  const destroyOnRemoval = flag('destroyOnRemoval', context.destroyOnRemoval, defaults.destroyOnRemoval);
  if (destroyOnRemoval && stage !== 'dev') {
    fail('destroyOnRemoval', context.destroyOnRemoval, 'false when stage=prod: production data is retained');
  }
  const throttleRate = positiveNumber('throttleRate', context.throttleRate, defaults.throttleRate);
  const throttleBurst = positiveNumber('throttleBurst', context.throttleBurst, defaults.throttleBurst);
  if (!Number.isInteger(throttleBurst)) fail('throttleBurst', context.throttleBurst, 'a whole number');
  const alarmTopicArn = context.alarmTopicArn;
  if (alarmTopicArn !== undefined && (typeof alarmTopicArn !== 'string' || !SNS_TOPIC.test(alarmTopicArn))) {
    fail('alarmTopicArn', alarmTopicArn, 'an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)');
  }
  return {
    stage,
    corsOrigins: origins(context.corsOrigins, defaults.corsOrigins),
    throttleRate,
    throttleBurst,
    logRetention: retention(context.logRetentionDays, defaults.logRetention),
    destroyOnRemoval,
    ...(typeof alarmTopicArn === 'string' ? { alarmTopicArn } : {}),
  };
}

/** The configuration from a construct's context (the app's `-c` values and cdk.json). */
export function configFromNode(node: Node): StageConfig {
  const context: Context = {};
  for (const key of CONTEXT_KEYS) context[key] = node.tryGetContext(key);
  return configFromContext(context);
}
