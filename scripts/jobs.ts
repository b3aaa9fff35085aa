import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Runs this script again as `jobs` processes, each with `--slice K` added to its arguments, and
 * hands every line a job prints (one JSON record) to `onRecord`. Resolves when all have exited
 * cleanly. A job with `--slice K` takes the items i with i % jobs === K.
 */
export async function runJobs<T>(jobs: number, onRecord: (record: T) => void): Promise<void> {
  const children = Array.from({ length: jobs }, (_, slice) => {
    const child = fork(process.argv[1]!, [...process.argv.slice(2), '--slice', String(slice)], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    createInterface({ input: child.stdout! }).on('line', (line) => onRecord(JSON.parse(line) as T));
    return new Promise<void>((resolve, reject) =>
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`job ${slice} exited ${code}`)))),
    );
  });
  await Promise.all(children);
}
