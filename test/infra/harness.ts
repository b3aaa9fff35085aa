/**
 * The app under test, synthesized without bundling (the functions' code is not built) and
 * without the built-in CloudFormation schema check, which alone takes seconds. cdk-nag still runs.
 * One app per context, cached: synthesis is the slow part of these tests, and the files that use
 * this module share a worker (vitest.config.ts), so each app is synthesized once a worker.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll } from 'vitest';
import { type BuiltApp, buildApp } from '../../infra/build-app.js';
import { CDK_OUTDIRS_ENV } from '../support/cdk-outdirs.js';

/**
 * Where the apps write their cloud assemblies (about 20 MB each, most of it a layer the CDK copies
 * in): without an outdir the CDK leaves a `cdk.out*` folder in the system's temporary folder per
 * synthesis. The suite's folder (test/support/cdk-outdirs.ts), which outlives each file: the files
 * share a worker, and with it this module and the apps it keeps. Run otherwise, a folder of the
 * file that imports this module, removed after it.
 */
const OUTDIRS = process.env[CDK_OUTDIRS_ENV] ?? mkdtempSync(join(tmpdir(), 'klondike-cdk-'));
if (!process.env[CDK_OUTDIRS_ENV]) afterAll(() => rmSync(OUTDIRS, { recursive: true, force: true }));

export interface SynthesizedApp extends BuiltApp {
  readonly template: Template;
}

const cache = new Map<string, SynthesizedApp>();

export function synthesize(context: Record<string, unknown> = {}): SynthesizedApp {
  const key = JSON.stringify(context);
  const cached = cache.get(key);
  if (cached) return cached;
  const built = buildApp({
    context: { ...context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
    outdir: mkdtempSync(join(OUTDIRS, 'app-')),
  });
  const result = { ...built, template: Template.fromStack(built.stack) };
  cache.set(key, result);
  return result;
}

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; [key: string]: any }>;

/** The logical ids and resources of one type. */
export function resourcesOf(template: Template, type: string): [string, Resources[string]][] {
  const all = template.toJSON().Resources as Resources;
  return Object.entries(all).filter(([, r]) => r.Type === type);
}

/** Every statement each role holds, from its inline policies and the policies attached to it. */
export function statementsByRole(template: Template): Map<string, any[]> {
  const byRole = new Map<string, any[]>();
  const add = (roleId: string, statements: any[]) =>
    byRole.set(roleId, [...(byRole.get(roleId) ?? []), ...statements]);
  for (const [id, role] of resourcesOf(template, 'AWS::IAM::Role')) {
    byRole.set(id, byRole.get(id) ?? []);
    for (const p of role.Properties!.Policies ?? []) add(id, p.PolicyDocument.Statement);
  }
  for (const [, policy] of resourcesOf(template, 'AWS::IAM::Policy')) {
    for (const role of policy.Properties!.Roles) add(role.Ref, policy.Properties!.PolicyDocument.Statement);
  }
  return byRole;
}

/**
 * A role's grants as sorted `action on resource` lines, one per action and resource, so that a test
 * can state a role's whole policy exactly, however the CDK groups the statements.
 */
export function grantsOf(statements: readonly any[]): string[] {
  const lines: string[] = [];
  for (const s of statements) {
    // The one condition a grant may carry: the partition keys it holds for.
    const keys = s.Condition === undefined ? undefined : leadingKeys(s.Condition);
    if (s.Effect !== 'Allow' || (s.Condition !== undefined && !keys) || s.NotAction || s.NotResource) {
      lines.push(`unexpected statement ${JSON.stringify(s)}`);
      continue;
    }
    const only = keys ? ` for keys ${keys.join(' ')}` : '';
    for (const action of [s.Action].flat()) {
      for (const resource of [s.Resource].flat())
        lines.push(`${action} on ${JSON.stringify(resource)}${only}`);
    }
  }
  return lines.sort();
}

/** The key patterns of a condition that is `dynamodb:LeadingKeys` under ForAllValues:StringLike and nothing else. */
function leadingKeys(condition: any): string[] | undefined {
  const like = condition['ForAllValues:StringLike'];
  if (Object.keys(condition).length !== 1 || !like || Object.keys(like).length !== 1) return undefined;
  const keys = like['dynamodb:LeadingKeys'];
  return keys === undefined ? undefined : [keys].flat();
}

/** The role of a function resource (its logical id). */
export const roleOf = (template: Template, functionId: string): string =>
  (template.toJSON().Resources as Resources)[functionId]!.Properties!.Role['Fn::GetAtt'][0];
