import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * A command's arguments (`npm start`'s and every script's), parsed strictly as `parseArgs` does: an
 * unknown option or a missing value ends the command with that one line and its usage (exit 2), not a
 * stack trace. `--help` (or `-h`) prints the usage (exit 0), unless the command takes `help` itself.
 */
export function parseScriptArgs<const T extends ParseArgsConfig>(config: T, usage: string) {
  if (!('help' in (config.options ?? {}))) answerHelp(usage);
  try {
    return parseArgs(config);
  } catch (error) {
    // The whole message on one line: Node's advice for a value that starts with a dash is on its later lines.
    console.error(`${(error as Error).message.split('\n').join(' ').trim()}\nusage: ${usage}`);
    process.exit(2);
  }
}

/** `--help` (or `-h`) anywhere on the command line: prints the usage and exits 0. */
export function answerHelp(usage: string): void {
  if (!process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) return;
  console.log(`usage: ${usage}`);
  process.exit(0);
}
