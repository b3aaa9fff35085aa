import { type Api, ApiError, createApi, DEFAULT_URL, NetworkError } from './api.js';
import { printer, type Streams } from './io.js';
import { type CommonOptions, UsageError } from './options.js';
import { wantsColor, withSymbols } from './render.js';

/** A refusal or a failure, on one line. */
export function errorLine(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 422) return `refused: ${withSymbols(error.message)}`;
    // The API's advice to retry with the same Idempotency-Key is the client's own business: it
    // retried so before giving up, and the game is read again after a write it gave up on.
    if (error.status === 503) return 'error: the service is not answering just now.';
    return `error: ${withSymbols(error.message)}`;
  }
  if (error instanceof NetworkError || error instanceof UsageError) return error.message;
  return `error: ${(error as Error)?.message ?? String(error)}`;
}

/** A mistake on a command's command line, as every refusal of one is said. */
export const refusal = (command: 'play' | 'replay', error: UsageError): string =>
  `klondike ${command}: ${error.message} (--help for usage)`;

export type MainStreams = Streams & { errors?: NodeJS.WritableStream };

const STANDARD: MainStreams = { input: process.stdin, output: process.stdout, errors: process.stderr };

/**
 * A command's entry point: parse the command line, print the usage for --help, run, and turn every
 * failure into one line (exit 2 for a usage mistake, 1 for anything else). Never throws.
 */
export async function cliMain<T>(
  command: 'play' | 'replay',
  usage: string,
  parseArgs: (argv: string[], env: NodeJS.ProcessEnv) => { help: true } | (T & { help?: false }),
  run: (config: NoInfer<T> & MainStreams & { errors: NodeJS.WritableStream }) => Promise<number>,
  argv: string[],
  streams: MainStreams = STANDARD,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const errors = streams.errors ?? streams.output;
  try {
    const options = parseArgs(argv, env);
    if (options.help) {
      streams.output.write(usage);
      return 0;
    }
    return await run({ ...streams, errors, ...(options as T) });
  } catch (error) {
    if (error instanceof UsageError) {
      errors.write(`${refusal(command, error)}\n`);
      return 2;
    }
    errors.write(`${errorLine(error)}\n`);
    return 1;
  }
}

/** What every command sets up: where to print, whether to colour, and the API client. */
export function session(
  config: Streams &
    Partial<CommonOptions> & { errors?: NodeJS.WritableStream; api?: Api; signal?: AbortSignal },
) {
  return {
    print: printer(config.output),
    fail: printer(config.errors ?? config.output),
    color: config.color ?? wantsColor(config.output),
    api:
      config.api ??
      createApi({
        url: config.url ?? DEFAULT_URL,
        ...(config.token ? { token: config.token } : {}),
        ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
        ...(config.signal ? { signal: config.signal } : {}),
      }),
  };
}
