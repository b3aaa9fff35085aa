/**
 * How every handler is bundled: one set of esbuild options, read by the stack (./functions.ts)
 * and by `npm run bundle-report`, so the report measures exactly what is deployed.
 */

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: handler entries and package-lock.json are found from here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Node major of the Lambda runtime (nodejs24.x); esbuild's target for syntax lowering. */
export const NODE_TARGET = 'node24';

/**
 * ESM output needs `require` for the CommonJS parts of dependencies that call `require('node:…')`
 * at run time; esbuild's shim throws "Dynamic require … is not supported" without it.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __klondikeCreateRequire } from 'node:module'; const require = __klondikeCreateRequire(import.meta.url);";

/**
 * Prefer the ES module builds of dependencies (the AWS SDK ships both) so esbuild can drop
 * what a handler does not use.
 */
export const MAIN_FIELDS = ['module', 'main'];

/**
 * Nothing is external: the AWS SDK version pinned in package-lock.json is bundled instead of
 * whatever version the Lambda runtime happens to carry, and it loads from one file.
 */
export const EXTERNAL_MODULES: string[] = [];

/** esbuild options shared by the stack and the bundle report (esbuild's own option names). */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: NODE_TARGET,
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: MAIN_FIELDS,
  external: EXTERNAL_MODULES,
  banner: { js: ESM_REQUIRE_BANNER },
} as const;
