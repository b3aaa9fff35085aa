import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLocalApi } from '../support/local.js';

/**
 * Every shell block of the README and the docs marked as runnable (its fence is ```sh runnable)
 * runs as written against a started runtime, in a fresh bash with `set -euo pipefail`, its curl
 * failing on an HTTP error: a block fails when a command fails or answers an error.
 */
const ROOT = join(import.meta.dirname, '../..');
const files = [
  'README.md',
  'CONTRIBUTING.md',
  join('client', 'README.md'),
  ...readdirSync(join(ROOT, 'docs')).map((name) => join('docs', name)),
].filter((file) => file.endsWith('.md'));

interface Block {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

function runnableBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```sh runnable\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.startsWith('```')) end++;
    blocks.push({ file, line: start, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

const blocks = files.flatMap(runnableBlocks);
/** The tools the examples use; `.ci/run` installs them where they are missing. */
const missing = ['curl', 'jq'].filter((tool) => spawnSync('bash', ['-c', `command -v ${tool}`]).status !== 0);
if (missing.length > 0) console.log(`the docs' examples are skipped: ${missing.join(' and ')} not found`);
/**
 * curl fails on an HTTP error and says why (`--fail-with-body`, which `-f` would contradict: a block's
 * own `-f` is dropped from its short options), unless it writes out the status (`-w`) to check it.
 */
const PRELUDE = `set -euo pipefail
curl() {
  local args=() a
  for a in "$@"; do
    if [[ $a == -w || $a == --write-out ]]; then command curl "$@"; return; fi
  done
  for a in "$@"; do
    if [[ $a =~ ^-[a-zA-Z]+$ && $a == *f* ]]; then a=\${a//f/}; [[ $a == - ]] && continue; fi
    args+=("$a")
  done
  command curl --fail-with-body --silent --show-error "\${args[@]}"
}
`;

/** Runs `code` in bash without blocking this process's event loop, which serves the runtime. */
function bash(code: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', code], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

describe.skipIf(missing.length > 0)('the examples of the README and the docs', () => {
  const server = useLocalApi();

  it('include runnable blocks, the README its first game among them', () => {
    expect(blocks.filter((block) => block.file === 'README.md').length).toBeGreaterThan(0);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} runs as written`, async () => {
      const port = new URL(server.local.url).port;
      const code = block.code.replace(/(localhost|127\.0\.0\.1):3000/g, `127.0.0.1:${port}`);
      const run = await bash(PRELUDE + code, { ...process.env, PORT: port, LOG_LEVEL: 'SILENT' });
      expect(run.status, run.output).toBe(0);
    }, 150_000);
  }
});
