/**
 * How every function of the stack is made, the routes' and the projector's alike: one bundling
 * (./bundling.ts), Node.js 24 on arm64, a log group of its own, and a role of its own that holds
 * exactly the statements the caller lists and may write only to that log group.
 */
import { join } from 'node:path';
import { AssetHashType, DockerImage, type Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { ESBUILD_OPTIONS } from './bundling.js';

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

/**
 * A handler's code: `entry` bundled at synthesis by the local esbuild, in this process, into
 * `index.mjs` and its source map (what Lambda loads as `index.handler`). `cdk synth` needs no Docker,
 * and no process is started per function. Its hash is that of the output, so a change that does
 * not change the bundle deploys nothing.
 */
export function handlerCode(projectRoot: string, entry: string): Code {
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never used: local bundling below always builds or fails loudly.
      image: DockerImage.fromRegistry('local-esbuild-only'),
      // Never run either, but it names the entry: the CDK caches a bundling by its options as JSON,
      // which drops the local function below, so without it every function would get the first
      // function's bundle.
      command: ['esbuild', entry],
      local: {
        tryBundle(outputDir: string): boolean {
          buildSync({
            ...ESBUILD_OPTIONS,
            entryPoints: [join(projectRoot, entry)],
            outfile: join(outputDir, 'index.mjs'),
            absWorkingDir: projectRoot,
            logLevel: 'warning',
          });
          return true;
        },
      },
    },
  });
}

/** `id` names the function; its log group and role are `<id>Logs` and `<id>Role` beside it. */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): LambdaFunction {
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

  return new LambdaFunction(scope, id, {
    description: props.description,
    code: handlerCode(props.projectRoot, props.entry),
    handler: 'index.handler',
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
  });
}

/** An Allow statement (the only kind this stack writes). */
export const allow = (actions: readonly string[], resources: readonly string[]): PolicyStatement =>
  new PolicyStatement({ effect: Effect.ALLOW, actions: [...actions], resources: [...resources] });
