#!/usr/bin/env node
// The `klondike` command: runs the TypeScript entry points of the terminal client through tsx.
//   klondike play [options]      klondike replay <game id | file> [options]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const commands = { play: '../play.ts', replay: '../replay.ts' };
const [command, ...args] = process.argv.slice(2);

if (!command || command === '-h' || command === '--help' || command === 'help') {
  process.stdout.write(
    'Usage: klondike play [options]                      play a game (--help for the options)\n' +
      '       klondike replay <game id | file> [options]   replay a game (--help for the options)\n',
  );
  process.exit(command ? 0 : 2);
}
if (!Object.hasOwn(commands, command)) {
  process.stderr.write(`klondike: unknown command "${command}": use play or replay (--help for usage)\n`);
  process.exit(2);
}

let tsx;
try {
  tsx = import.meta.resolve('tsx');
} catch {
  process.stderr.write('klondike: tsx is not installed: run npm install in the project\n');
  process.exit(1);
}
const script = fileURLToPath(new URL(commands[command], import.meta.url));
const child = spawn(process.execPath, ['--import', tsx, script, ...args], { stdio: 'inherit' });
// Ctrl-C reaches the child too (same process group); it decides how to end.
process.on('SIGINT', () => {});
child.on('error', (error) => {
  process.stderr.write(`klondike: cannot start node: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
