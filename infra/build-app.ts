/**
 * The CDK app, as a function: `infra/app.ts` runs it for the CLI, and the tests build the same
 * app with their own context. Reads the stage and its settings from context, makes the one
 * stack, and runs cdk-nag's AWS Solutions rules on it during synthesis.
 */
import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { configFromNode } from './config.js';
import { KlondikeStack } from './stack.js';

export interface BuildAppOptions extends AppProps {
  /** Where handler entries and package-lock.json live. Default: this repository. */
  readonly projectRoot?: string;
}

export interface BuiltApp {
  readonly app: App;
  readonly stack: KlondikeStack;
}

/** The stack's name for a stage: stages can live side by side in one account. */
export const stackName = (stage: string): string => `Klondike-${stage}`;

export function buildApp(options: BuildAppOptions = {}): BuiltApp {
  const { projectRoot, ...appProps } = options;
  const app = new App(appProps);
  const config = configFromNode(app.node);
  const stack = new KlondikeStack(app, stackName(config.stage), {
    config,
    ...(projectRoot ? { projectRoot } : {}),
    // Account and region of the caller's credentials and config, which the CLI always passes (its
    // region us-east-1 when it finds none); run without them, the template stays environment-agnostic
    // (nothing in it needs a concrete environment).
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
  // Findings fail synthesis; each acknowledged one is acknowledged where it arises, with its reason.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
