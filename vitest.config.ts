import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The handlers' logs would drown the test output (their logger reads this once, when loaded).
    env: { LOG_LEVEL: 'SILENT' },
    // Only the AWS SDK's NodeVersionSupportWarning, before any test builds a client (see the file).
    setupFiles: ['infra/local/node-support.ts'],
  },
});
