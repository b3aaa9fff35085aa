import { resolve } from 'node:path';
import { DEFAULT_URL } from '../../client/api.js';

/** Where the local runtime keeps its games. */
export type DataPlace =
  | { readonly kind: 'memory' }
  /** `--data DIR` or KLONDIKE_DATA_DIR. */
  | { readonly kind: 'folder'; readonly dir: string }
  /** DYNAMODB_ENDPOINT: `where` names the table and the endpoint. */
  | { readonly kind: 'external'; readonly where: string };

/** Who issues sign-in tokens: the runtime's development issuer, or the one OIDC_ISSUER names. */
export type SignIn = { readonly kind: 'dev' } | { readonly kind: 'issuer'; readonly issuer: string };

/**
 * Bound to an address other than loopback (`--host`): the address, and for a wildcard (0.0.0.0,
 * ::) this machine's addresses on its networks, where others reach it.
 */
export interface Exposure {
  readonly host: string;
  readonly addresses: readonly string[];
}

export interface BannerFacts {
  readonly url: string;
  readonly data: DataPlace;
  /** How long the web client's build took. */
  readonly webBuildMs: number;
  readonly isolated?: boolean;
  /** Left out: no line about signing in. */
  readonly signIn?: SignIn;
  /** Left out: bound to loopback, reached from this machine alone. */
  readonly exposure?: Exposure;
}

const WILDCARDS = ['0.0.0.0', '::'];

/**
 * Who can reach a runtime bound beyond loopback. Its own routes (`/dev/*`) answer this machine
 * alone, at a loopback address: bound to a wildcard it has one; bound to another address it has
 * none, and no development sign-in then.
 */
function reachRows(url: string, exposure: Exposure): [string, string][] {
  const port = new URL(url).port;
  if (!WILDCARDS.includes(exposure.host)) {
    return [
      ['Reach', `bound to ${exposure.host}: anyone who can reach that address can play, at ${url}`],
      ['', '/dev routes answer only at 127.0.0.1, localhost or [::1], where it is not bound'],
    ];
  }
  const at = exposure.addresses.map(
    (address) => `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
  );
  return [
    [
      'Reach',
      `bound to ${exposure.host}: anyone on this machine's networks can play${at.length ? `, at ${at.join(', ')}` : ''}`,
    ],
    ['', `/dev routes (sign-in tokens) answer only this machine, at ${url}`],
  ];
}

function signInRows(
  url: string,
  signIn: SignIn | undefined,
  exposure: Exposure | undefined,
): [string, string][] {
  if (!signIn) return [];
  if (signIn.kind === 'issuer') return [['Sign in', `with a token from ${signIn.issuer}`]];
  if (exposure && !WILDCARDS.includes(exposure.host)) {
    return [['Sign in', `none: the development issuer answers only at loopback (bind 0.0.0.0 for both)`]];
  }
  return [
    ['Sign in', `curl -s -X POST ${url}/dev/tokens -d '{"player": "alice"}'`],
    ['', `then: curl -s -X POST ${url}/games -H 'Authorization: Bearer <the token>' -d '{}'`],
  ];
}

function dataLine(data: DataPlace): string {
  switch (data.kind) {
    case 'memory':
      return 'in memory: gone when this stops (keep games with npm start -- --data .data)';
    case 'folder':
      return `in ${resolve(data.dir)}: kept across restarts (one runtime a folder)`;
    case 'external':
      return data.where;
  }
}

/**
 * What `npm start` prints once it serves: the first thing a newcomer reads, so it says what there
 * is to do next (the web client, the terminal client, a first request, how to sign in, where the
 * games are kept) with commands that work as printed, on whatever port this runtime took.
 */
export function banner(facts: BannerFacts): string[] {
  const { url } = facts;
  // The terminal client talks to DEFAULT_URL unless told otherwise.
  const play = url === DEFAULT_URL ? 'npm run play' : `npm run play -- --url ${url}`;
  const rows: [string, string][] = [
    ['Web client', `${url}/  (built in ${facts.webBuildMs} ms)`],
    ['Terminal', play],
    ['API', `curl -s -X POST ${url}/games -d '{"seed": 1}'`],
    ['', `every route: ${url}/openapi.json`],
    ...signInRows(url, facts.signIn, facts.exposure),
    ...(facts.exposure ? reachRows(url, facts.exposure) : []),
    ['Data', dataLine(facts.data)],
  ];
  return [
    `Klondike is serving on ${url}${facts.isolated ? '  (each route in its own process)' : ''}`,
    ...rows.map(([label, text]) => `  ${label.padEnd(12)}${text}`),
    'Ctrl-C stops it.',
  ];
}
