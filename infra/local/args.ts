import { closeSync, openSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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

/**
 * A whole-number option's value in `min..max`, written in plain digits (`1e3`, `0x10`, `+5` or
 * `2.0` is no whole number here); else one line naming the option, and the usage (exit 2).
 */
export function wholeNumber(name: string, text: string, min: number, max: number, usage: string): number {
  const value = Number(text);
  if (/^\d+$/.test(text) && value >= min && value <= max) return value;
  const range = max >= Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
  refuse(`--${name} takes a whole number ${range}, not ${JSON.stringify(text)}`, usage);
}

/**
 * Processes a command may share its work among: two a core, at most (each job is meant to have a
 * core to itself; more only queue for them, and 1000 of them stall the machine).
 */
export const MOST_JOBS = 2 * availableParallelism();

/**
 * Checks before any work that the file an option names can be written (made if missing, never
 * emptied here), so that a long run does not end by failing to write its results; else one line
 * naming the option and why (exit 2).
 */
export function writable(name: string, path: string): void {
  try {
    closeSync(openSync(path, 'a'));
  } catch (error) {
    console.error(`--${name} ${path} cannot be written: ${(error as Error).message}`);
    process.exit(2);
  }
}

/** A mistake on the command line: said in one line, with the usage (exit 2). */
export function refuse(mistake: string, usage: string): never {
  console.error(`${mistake}\nusage: ${usage}`);
  process.exit(2);
}

/** `--passes`: a whole number from 1, or `unlimited` (null), as the rules take them. */
export function passesOf(text: string, usage: string): number | null {
  if (text === 'unlimited') return null;
  if (/^\d+$/.test(text) && Number(text) >= 1) return Number(text);
  return refuse(`--passes is a whole number from 1, or unlimited, not ${JSON.stringify(text)}`, usage);
}
