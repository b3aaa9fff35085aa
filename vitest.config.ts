import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first. vitest starts the files it has timed longest first,
 * but a fresh clone (CI) has no timings and would start them by size, leaving a long file to the end
 * on a machine whose other worker is idle by then. This only orders; a file missing here runs after.
 * The order is that of their times in two whole runs on this 2-core machine, while other work kept
 * a core or more busy (local-runtime.test 45-50 s down to legacy-layout.test 7-16 s).
 */
const LONGEST = [
  'test/infra/local-runtime.test.ts',
  'test/web/browser.test.ts',
  'test/web/table.test.ts',
  'test/infra/synth.test.ts',
  'test/functions/projector.test.ts',
  'test/web/players.test.ts',
  'test/web/daily.test.ts',
  'test/integration/api-isolated.test.ts',
  'test/integration/daily.test.ts',
  'test/infra/change-feed.test.ts',
  'test/integration/api.test.ts',
  'test/solver/solver.test.ts',
  'test/client/session.test.ts',
  'test/infra/stack.test.ts',
  // Files of the sharing workers, which would otherwise run after every isolated file and end the
  // run with one or two workers busy (some 10 s).
  'test/infra/projections.test.ts',
  'test/infra/players.test.ts',
  'test/solver/hint.test.ts',
  'test/integration/solver-routes.test.ts',
  'test/docs/examples.test.ts',
  'test/integration/legacy-layout.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.indexOf(relative(this.ctx.config.root, file.moduleId).split('\\').join('/'));
      return at === -1 ? LONGEST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Files that share nothing with others but their modules: no store, no runtime, no process, no
 * environment set, no mock. They run in workers that vitest keeps from file to file (isolate: false),
 * which spares each the start of a fresh worker and the loading of its modules (about 0.15 s of CPU
 * a file). A file that starts a store or a runtime, mocks a module or the SDK, or sets process.env
 * stays out: in a shared worker what it left behind would reach the next file.
 */
const SHARING = [
  'test/domain/*.test.ts',
  'test/solver/{analysis,choices,commuting,hint,safety,solver,table}.test.ts',
  'test/client/{commands,render}.test.ts',
  'test/web/{words,layout,responses}.test.ts',
  'test/infra/{config,banner}.test.ts',
  // The CDK's assertions: besides aws-cdk-lib, loaded once a worker, they share the apps their
  // harness synthesizes (test/infra/harness.ts), each once a worker rather than once a file.
  'test/infra/{daily,players,projections,site,stack}.test.ts',
  'test/functions/snapshot-size.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      // The benchmarks (`npm run bench`) are the other project's: this one would run them again.
      {
        extends: true,
        test: {
          name: 'sharing',
          include: SHARING,
          isolate: false,
          benchmark: { exclude: ['**'] },
          // Node itself runs these files' TypeScript and the code they import (its type stripping, and
          // test/support/typescript.mjs to find `./x.ts` for `./x.js`), not Vite's module runner: that
          // rewrites imports so that each call of an imported function is a property lookup, and the
          // solver's loops run about three times as slowly under it. (The other files gain nothing:
          // they spend their time in processes, sockets and browsers, and each would strip its
          // imports' types afresh, where Vite transforms a file once for all.)
          experimental: { viteModuleRunner: false },
          execArgv: [
            '--experimental-transform-types',
            '--no-warnings=ExperimentalWarning',
            '--import',
            './test/support/typescript.mjs',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // Each file in a fresh worker thread, not a fresh process: its environment (process.env)
          // is its own all the same, and the suite spends about a quarter less CPU (226 to 247 s
          // against 303 s, 138 to 153 s of wall time against 181 s, on this machine's 2 cores).
          pool: 'threads',
          include: ['test/**/*.test.ts'],
          exclude: SHARING,
          benchmark: { include: ['test/bench/**/*.bench.ts'] },
        },
      },
    ],
    // Files at once: a core and a half each. Many files spend much of their time waiting on processes
    // they started, sockets and a browser, so more files than cores keep the cores busy; vitest's
    // default (a core but one) runs them one by one on 2 cores. A whole run with 3 on this 2-core
    // machine, quiet: 138 to 155 s (its speed varies from hour to hour). Its CPU is more than `time` says: `time` leaves out Chromium's
    // renderers and esbuild's service, which their parents never wait for (some 45 s of a run,
    // measured with a child subreaper's RUSAGE_CHILDREN).
    maxWorkers: Math.max(2, Math.ceil(availableParallelism() * 1.5)),
    sequence: { sequencer: LongestFirst },
    // The folder of the CDK tests' cloud assemblies, for the whole run (test/support/cdk-outdirs.ts).
    globalSetup: ['test/support/cdk-outdirs.ts'],
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
      // The handlers run in the tests' own processes too: creations under an Idempotency-Key need
      // the service's secret (the local runtime sets its own, as the stack does).
      CREATION_SECRET: 'the-tests-creation-secret-of-32-characters-or-more',
    },
  },
});
