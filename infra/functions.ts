/**
 * How every function of the stack is made, the routes' and the projector's alike: one bundling
 * (./bundling.ts), Node.js 24 on arm64, a log group of its own, and a role of its own that holds
 * exactly the statements the caller lists and may write only to that log group.
 */
import { join } from 'node:path';
import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ESBUILD_OPTIONS, EXTERNAL_MODULES, MAIN_FIELDS, NODE_TARGET } from './bundling.js';

/** The fold of a game is CPU-bound and memory buys CPU. */
export const MEMORY_MB = 512;
/** A whole vCPU, for the routes that run the solver: Lambda gives 1 vCPU at 1,769 MB. */
export const SOLVER_MEMORY_MB = 1_769;

export interface ServiceFunctionProps {
  /** The handler module, relative to `projectRoot`; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly roleDescription: string;
  readonly projectRoot: string;
  readonly timeout: Duration;
  /** Default MEMORY_MB. */
  readonly memoryMb?: number;
  readonly logRetention: RetentionDays;
  readonly logRemoval: RemovalPolicy;
  readonly environment: Readonly<Record<string, string>>;
  /** Everything the function may do besides writing its own logs. */
  readonly statements: readonly PolicyStatement[];
}

/** `id` names the function; its log group and role are `<id>Logs` and `<id>Role` beside it. */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): NodejsFunction {
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: props.logRetention,
    removalPolicy: props.logRemoval,
  });
  // An explicit role instead of the default one: the default attaches the managed
  // AWSLambdaBasicExecutionRole, which may write to every log group of the account.
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: props.roleDescription,
  });
  role.addToPrincipalPolicy(
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }),
  );
  for (const statement of props.statements) role.addToPrincipalPolicy(statement);

  return new NodejsFunction(scope, id, {
    description: props.description,
    entry: join(props.projectRoot, props.entry),
    handler: 'handler',
    projectRoot: props.projectRoot,
    depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memoryMb ?? MEMORY_MB,
    timeout: props.timeout,
    role,
    logGroup,
    environment: {
      ...props.environment,
      NODE_OPTIONS: '--enable-source-maps',
      LOG_LEVEL: 'INFO',
    },
    bundling: {
      format: OutputFormat.ESM,
      target: NODE_TARGET,
      minify: ESBUILD_OPTIONS.minify,
      sourceMap: ESBUILD_OPTIONS.sourcemap,
      sourcesContent: ESBUILD_OPTIONS.sourcesContent,
      mainFields: [...MAIN_FIELDS],
      banner: ESBUILD_OPTIONS.banner.js,
      externalModules: [...EXTERNAL_MODULES],
    },
  });
}

/** An Allow statement (the only kind this stack writes). */
export const allow = (actions: readonly string[], resources: readonly string[]): PolicyStatement =>
  new PolicyStatement({ effect: Effect.ALLOW, actions: [...actions], resources: [...resources] });
