/**
 * How every function of the stack is made, the routes' and the projector's alike: one bundling
 * (./bundling.ts), Node.js 24 on arm64, a log group of its own, and a role of its own that holds
 * exactly the statements the caller lists and may write only to that log group.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssetHashType, DockerImage, type Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { handlerEntry, PREPARE_DAILY_ENTRY, PROJECTOR_ENTRY, ROUTES } from '../functions/routes.js';
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

/** Every function's entry: the routes', the projector's and the daily deals' preparation's. */
const SERVICE_ENTRIES: readonly string[] = [
  ...ROUTES.map(handlerEntry),
  PROJECTOR_ENTRY,
  PREPARE_DAILY_ENTRY,
];

/** The files of each entry's bundle (`index.mjs` and its map), by entry: see bundlesTogether. */
type Bundles = ReadonlyMap<string, readonly { name: string; contents: Uint8Array }[]>;
const together = new Map<string, Bundles>();

/**
 * Every function's bundle, made by one esbuild build the first time one is asked for (in this
 * process, for bundles written beside `outputDir`): the modules the functions share are read and
 * linked once, which costs esbuild about 6 s of CPU for the 24 bundles instead of 10 s one by one.
 * Each bundle is byte for byte what a build of its entry alone makes, its map too: the map names
 * the sources relative to the bundle, so the bundles are built as if beside `outputDir`.
 */
function bundlesTogether(projectRoot: string, outputDir: string): Bundles {
  const beside = dirname(outputDir);
  const key = JSON.stringify([projectRoot, beside]);
  let bundles = together.get(key);
  if (!bundles) {
    const names = SERVICE_ENTRIES.map((_, i) => `klondike-bundle-${i}`);
    const { outputFiles } = buildSync({
      ...ESBUILD_OPTIONS,
      entryPoints: Object.fromEntries(
        SERVICE_ENTRIES.map((entry, i) => [`${names[i]}/index`, join(projectRoot, entry)]),
      ),
      outdir: beside,
      outExtension: { '.js': '.mjs' },
      write: false,
      absWorkingDir: projectRoot,
      logLevel: 'warning',
    });
    bundles = new Map(
      SERVICE_ENTRIES.map((entry, i) => [
        entry,
        outputFiles
          .filter((file) => basename(dirname(file.path)) === names[i])
          .map((file) => ({ name: basename(file.path), contents: file.contents })),
      ]),
    );
    together.set(key, bundles);
  }
  return bundles;
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
          const files = SERVICE_ENTRIES.includes(entry)
            ? bundlesTogether(projectRoot, outputDir).get(entry)!
            : undefined;
          if (!files) {
            buildSync({
              ...ESBUILD_OPTIONS,
              entryPoints: [join(projectRoot, entry)],
              outfile: join(outputDir, 'index.mjs'),
              absWorkingDir: projectRoot,
              logLevel: 'warning',
            });
            return true;
          }
          mkdirSync(outputDir, { recursive: true });
          for (const file of files) writeFileSync(join(outputDir, file.name), file.contents);
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
