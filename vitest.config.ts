import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Files at once: a core and a half each. Many files spend much of their time waiting on processes
    // they started, sockets and a browser, so more files than cores keep the cores busy; vitest's
    // default (a core but one) runs them one by one on 2 cores.
    maxWorkers: Math.max(2, Math.ceil(availableParallelism() * 1.5)),
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    // What fails a test that hangs: long enough for the slowest test on a machine that other work
    // keeps busy (no test's assertion depends on the machine's speed).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's default wait (1 s) is short enough for a busy machine to miss.
    expect: { poll: { timeout: 30_000 } },
    env: {
      // The handlers' logs would drown the test output (their logger reads this once, when loaded).
      LOG_LEVEL: 'SILENT',
      // The service's time limits ten times as long (functions/timeScale.ts): on a machine that other
      // work keeps busy, a limit fires only in the tests about it, which set their limits themselves.
      KLONDIKE_TIME_SCALE: '10',
    },
  },
});
