// Loaded into every test worker (vitest.config.ts, execArgv): Node runs the TypeScript itself (its
// type stripping, with --experimental-transform-types for parameter properties), and this hook
// resolves an import of `./x.js` to `./x.ts` where only the TypeScript file exists, as tsc and
// esbuild do. Synchronous, in the worker's own thread: node_modules resolve as before, at no cost.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (
        error?.code !== 'ERR_MODULE_NOT_FOUND' ||
        !specifier.startsWith('.') ||
        !specifier.endsWith('.js')
      ) {
        throw error;
      }
      return next(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
