import { type ParseArgsConfig, parseArgs } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

import { DEFAULT_TIMEOUT_MS, defaultUrl, normalizeUrl } from './api.js';

/** A mistake on the command line: printed on one line, exit status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Options every command shares. */
export const COMMON_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  player: { type: 'string' },
  timeout: { type: 'string' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CommonOptions {
  url: string;
  token?: string;
  /** Sign in as this player at the local runtime's development issuer: their games open to them. */
  player?: string;
  timeoutMs: number;
  /** undefined: decide from the output stream and NO_COLOR. */
  color?: boolean;
}

type Values = Record<string, string | boolean | undefined>;

/** parseArgs, with its errors turned into one-line usage errors. */
export function parse(
  argv: string[],
  options: ParseArgsOptionsConfig,
  allowPositionals: boolean,
): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true });
    return { values: values as Values, positionals };
  } catch (error) {
    const message = (error as Error).message;
    // A value that starts with a dash (`--at -1`) reads as an option: said plainly, with the way to
    // give it.
    const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const option = ambiguous[1]!;
      const value = argv[argv.indexOf(option) + 1];
      throw new UsageError(
        `${option} needs a value, and "${value}" reads as an option: write ${option}=${value} to give it`,
      );
    }
    throw new UsageError(message.split('\n').join(' ').trim() || 'bad arguments');
  }
}

/** The longest wait for an answer a client may ask for: a day (a timer holds no more than 24.8 days). */
const LONGEST_TIMEOUT_S = 86_400;

export function commonOptions(values: Values, env: NodeJS.ProcessEnv): CommonOptions {
  // An empty KLONDIKE_URL is unset, as an empty PORT is.
  const given = (values.url as string | undefined) ?? (env.KLONDIKE_URL || undefined);
  const url = given ?? defaultUrl(env);
  if (url === undefined) {
    throw new UsageError(`PORT is "${env.PORT}", not a port number (1 to 65535); or give --url`);
  }
  // A URL without its scheme is an http one (`localhost:3000`); any other scheme is no API's.
  const scheme = /^([a-z][\w+.-]*):\/\//i.exec(url.trim())?.[1];
  if ((scheme !== undefined && !/^https?$/i.test(scheme)) || !URL.canParse(normalizeUrl(url))) {
    throw new UsageError(
      `${values.url === undefined ? 'KLONDIKE_URL' : '--url'} takes the API's http(s) URL, not "${url}"`,
    );
  }
  const timeout = values.timeout as string | undefined;
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (timeout !== undefined) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > LONGEST_TIMEOUT_S)
      throw new UsageError(
        `--timeout takes seconds, more than 0 and at most ${LONGEST_TIMEOUT_S}, not "${timeout}"`,
      );
    timeoutMs = seconds * 1000;
  }
  const color = values['no-color'] ? false : values.color ? true : undefined;
  const token = (values.token as string | undefined) ?? env.KLONDIKE_TOKEN;
  const player = values.player as string | undefined;
  if (player !== undefined && !/^[\w.@-]{1,64}$/.test(player)) {
    throw new UsageError(`--player takes a name of 1 to 64 letters, digits, _ . @ or -, not "${player}"`);
  }
  return {
    url,
    timeoutMs,
    ...(token ? { token } : {}),
    ...(player === undefined ? {} : { player }),
    ...(color === undefined ? {} : { color }),
  };
}

/** An integer in a range, from an option's text. */
export function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max) {
    // No bound but the largest whole number a client holds exactly (the API's bound too) is named
    // only to a number past it.
    const range =
      max >= Number.MAX_SAFE_INTEGER && !(Number(text) > max) ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} takes a whole number ${range}, not "${text}"`);
  }
  return Number(text);
}

/**
 * A deck from the command line: 52 card codes separated by commas or spaces (`10H` is read as
 * `TH`), or the 156-digit string (3 digits a card: rank 01..13, then suit 1..4 for C D H S). Each
 * card is checked here, and that none comes twice, so a mistake is named before anything is sent.
 */
export function parseDeck(text: string): string[] | string {
  const trimmed = text.trim();
  const digits = /^\d+$/.test(trimmed);
  if (digits && trimmed.length !== 156)
    throw new UsageError(`a deal string is 156 digits, not ${trimmed.length}`);
  const codes = digits
    ? (trimmed.match(/\d{3}/g) ?? []).map((group) => {
        const rank = Number(group.slice(0, 2));
        const suit = Number(group[2]);
        return rank >= 1 && rank <= 13 && suit >= 1 && suit <= 4
          ? `${'A23456789TJQK'[rank - 1]}${'CDHS'[suit - 1]}`
          : group;
      })
    : trimmed
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((code) => code.toUpperCase().replace(/^10/, 'T'));
  if (codes.length !== 52) throw new UsageError(`--deck takes 52 cards, not ${codes.length}`);
  const seen = new Set<string>();
  for (const [i, code] of codes.entries()) {
    if (!/^[A2-9TJQK][CDHS]$/.test(code))
      throw new UsageError(
        `card ${i + 1} of --deck, "${code}", is no card: ${digits ? 'three digits, a rank 01..13 then a suit 1..4 (C D H S)' : 'a rank A 2..10 J Q K, then a suit C D H S (10H, TH, 7S)'}`,
      );
    if (seen.has(code)) throw new UsageError(`--deck has ${code} twice: a deck has each card once`);
    seen.add(code);
  }
  return digits ? trimmed : codes;
}
