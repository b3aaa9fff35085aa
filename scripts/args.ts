import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * A script's arguments, parsed strictly as `parseArgs` does: an unknown option or a missing value ends
 * the script with that one line and its usage (exit 2), not a stack trace.
 */
export function parseScriptArgs<const T extends ParseArgsConfig>(config: T, usage: string) {
  try {
    return parseArgs(config);
  } catch (error) {
    // The whole message on one line: Node's advice for a value that starts with a dash is on its later lines.
    console.error(`${(error as Error).message.split('\n').join(' ').trim()}\nusage: ${usage}`);
    process.exit(2);
  }
}
