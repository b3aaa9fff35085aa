/**
 * The app under test, synthesized without bundling (the functions' code is not built) and
 * without the built-in CloudFormation schema check, which alone takes seconds. cdk-nag still runs.
 * One app per context, cached: synthesis is the slow part of these tests.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { type BuiltApp, buildApp } from '../../infra/build-app.js';

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
