/**
 * A local runtime on a `--data` folder whose change stream delivers nothing (its consumer never
 * answers), run as a child process by test/infra/change-feed.test.ts and killed with SIGKILL: every
 * write it answered is left undelivered, for the next runtime on the folder to catch up on.
 */
import { startRuntime } from '../../infra/local/runtime.js';

process.env.LOG_LEVEL = 'SILENT';
const runtime = await startRuntime({
  port: 0,
  dataDir: process.argv[2]!,
  projector: () => new Promise(() => {}),
});
console.log(`serving ${runtime.url}`);
