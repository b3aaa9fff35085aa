/**
 * A player who takes every hint and nothing else: `npm run hintbot -- [--deals N] [--from S]
 * [--passes N|unlimited] [--draw 3|1] [--jobs J] [--out FILE] [--clock cpu|wall]
 * [--budget name=value,...] [--where-lost]`. Plays the numbered deals S..S+N-1 through the domain
 * (no HTTP, for speed), taking `hint` until it offers no move, and prints the share won with its 95%
 * Wilson interval, why the games that were not won ended, and the time per hint (median, p90 and
 * p99, each with its 95% interval from resampling whole games, and max; the process's CPU time
 * unless `--clock wall`). With `--out`, one JSON line per deal is written as it finishes (`{ seed,
 * won, moves, ending, ms, hintMs }`, `hintMs` the time of each hint), so a long run can be watched
 * and checked. With `--jobs J`, J processes share the deals (each hint still runs on one core). With
 * `--where-lost`, each game not won is analysed with every card known (the analysis route's
 * `analyse`, without its clock): for a winnable deal, the move that lost it (the one after the last
 * winnable version), in which pass, and what kind of move it was; a table of them is printed at the
 * end.
 */
import { appendFileSync } from 'node:fs';
import {
  ANALYSIS_BUDGET,
  analyse,
  deal,
  decide,
  evolve,
  fold,
  type GameEvent,
  type GameState,
  isViolation,
  type PlayedMove,
} from '../domain/index.js';
import type { Rules } from '../domain/rules.js';
import { deckFromSeed, MAX_SEED } from '../domain/shuffle.js';
import { HINT_BUDGET, type HintBudget, hint } from '../domain/solver/index.js';
import { MOST_JOBS, parseScriptArgs, passesOf, refuse, wholeNumber, writable } from '../infra/local/args.js';
import { clockNamed, clockOf } from './clock.js';
import { runJobs } from './jobs.js';
import { groupedQuantileInterval, percentile, quantileInterval, wilson, withInterval } from './stats.js';

const USAGE =
  'npm run hintbot -- [--deals N] [--from S] [--passes N|unlimited] [--draw 3|1] [--jobs J] [--out FILE] [--clock cpu|wall] [--budget name=value,...] [--where-lost]';
const { values } = parseScriptArgs(
  {
    options: {
      deals: { type: 'string', default: '100' },
      from: { type: 'string', default: '0' },
      passes: { type: 'string', default: '3' },
      draw: { type: 'string', default: '3' },
      out: { type: 'string' },
      jobs: { type: 'string', default: '1' },
      // Internal: this process is job `slice` of `jobs` and prints one JSON line per deal.
      slice: { type: 'string' },
      // Changes to the hint's budget, for experiments: name=value,... (see HINT_BUDGET).
      budget: { type: 'string', default: '' },
      // What a hint's time is: the process's CPU time (the default: other work on a shared machine
      // does not count) or the wall clock.
      clock: { type: 'string', default: 'cpu' },
      'where-lost': { type: 'boolean', default: false },
    },
  },
  USAGE,
);
const budget: HintBudget = { ...HINT_BUDGET };
for (const pair of values.budget.split(',').filter(Boolean)) {
  const [name, value] = pair.split('=');
  if (!(name! in budget) || !/^\d+$/.test(value ?? '') || !(Number(value) > 0)) {
    console.error(
      `--budget: ${pair} is not name=N (a whole number above 0) with a name of ${Object.keys(budget).join(', ')}`,
    );
    process.exit(2);
  }
  (budget as unknown as Record<string, number>)[name!] = Number(value);
}
const from = wholeNumber('from', values.from, 0, MAX_SEED, USAGE);
// The numbered deals stop at the last seed: they never start again from seed 0.
const deals = wholeNumber('deals', values.deals, 1, MAX_SEED - from + 1, USAGE);
const passes = passesOf(values.passes, USAGE);
if (values.draw !== '1' && values.draw !== '3')
  refuse(`--draw is 1 or 3, not ${JSON.stringify(values.draw)}`, USAGE);
const draw = values.draw === '1' ? 1 : 3;
const jobs = wholeNumber('jobs', values.jobs, 1, MOST_JOBS, USAGE);
const slice = values.slice === undefined ? undefined : wholeNumber('slice', values.slice, 0, jobs - 1, USAGE);
const clockName = clockNamed(values.clock, USAGE);
// Last, once the rest is known good: a refused run leaves no file behind.
if (values.out !== undefined && slice === undefined) writable('out', values.out);
const rules: Rules = { draw, passes, foundationToTableau: true };
const clock = clockOf(clockName);

/** More moves than any game needs: a bot still playing then is going round in circles. */
const MAX_MOVES = 2_000;

interface Played {
  readonly seed: number;
  readonly won: boolean;
  readonly moves: number;
  /** Why a game that was not won ended. */
  readonly ending: string | null;
  /** Milliseconds of each hint. */
  readonly times: number[];
  /** With --where-lost, for a game not won: whether its deal could be won, and where that was lost. */
  readonly lost?: WhereLost;
}

interface WhereLost {
  readonly deal: 'winnable' | 'lost' | 'unknown';
  /** The last version that could still be won, and the move played from it, its kind and pass. */
  readonly version?: number | 'unknown';
  readonly move?: PlayedMove;
  readonly kind?: string;
  readonly pass?: number;
}

/** What kind of move lost a game: from the waste, a tableau or a foundation, or a draw or recycle. */
const kindOfMove = (move: PlayedMove): string =>
  move.type !== 'move'
    ? move.type
    : move.from === 'waste'
      ? 'waste'
      : move.from.startsWith('t')
        ? 'tableau'
        : 'foundation';

/** Where a game not won was lost: its log resigned and analysed with every card known. */
function whereLost(
  events: readonly GameEvent[],
  states: readonly GameState[],
  moves: readonly PlayedMove[],
): WhereLost {
  const last = states.at(-1)!;
  const resigned = decide(last, { type: 'resign' });
  if (isViolation(resigned)) throw new Error('a game in play can always resign');
  const { verdict, lastWinnableVersion } = analyse([...events, resigned], ANALYSIS_BUDGET);
  if (verdict !== 'winnable' || lastWinnableVersion === null || lastWinnableVersion === 'unknown')
    return { deal: verdict, ...(lastWinnableVersion === 'unknown' ? { version: 'unknown' } : {}) };
  const pass = states[lastWinnableVersion]!.board.pass;
  // The hints stopped where the game could still be won: no move lost it, the hint found none.
  if (lastWinnableVersion === last.version)
    return { deal: verdict, version: lastWinnableVersion, kind: 'none (the hints stopped)', pass };
  const move = moves[lastWinnableVersion]!;
  return {
    deal: verdict,
    version: lastWinnableVersion,
    move,
    kind: kindOfMove(move),
    pass,
  };
}

/**
 * A bot going round in circles: the same position (with unlimited passes, whatever the pass) met
 * this many times. The hint is a function of the position, so with a pass limit once is enough; with
 * unlimited passes the pass is part of what the hint samples from, so a later pass may go otherwise.
 */
const COMES_BACK = passes === null ? 3 : 1;

/** A position, for spotting a bot going round in circles (with unlimited passes, whatever the pass). */
const positionKey = (state: GameState) =>
  JSON.stringify(passes === null ? { ...state.board, pass: 0 } : state.board);

function playByHints(seed: number): Played {
  const dealt = deal(deckFromSeed(seed), seed, rules);
  let state = fold([dealt]);
  const events: GameEvent[] = [dealt];
  const states: GameState[] = [state];
  const played: PlayedMove[] = [];
  const times: number[] = [];
  const seen = new Map<string, number>([[positionKey(state), 1]]);
  const ended = (moves: number, ending: string): Played => ({
    seed,
    won: false,
    moves,
    ending,
    times,
    ...(values['where-lost'] ? { lost: whereLost(events, states, played) } : {}),
  });
  for (let moves = 0; moves < MAX_MOVES; moves++) {
    const t0 = clock();
    const { move, reason } = hint(state, budget);
    times.push(clock() - t0);
    if (move === null) return ended(moves, reason.split(':')[0]!);
    const event = decide(state, move);
    if (isViolation(event)) throw new Error(`seed ${seed}: the hint ${JSON.stringify(move)} is illegal`);
    state = evolve(state, event);
    events.push(event);
    states.push(state);
    played.push(move);
    if (state.status === 'won') return { seed, won: true, moves: moves + 1, ending: null, times };
    const key = positionKey(state);
    const timesSeen = (seen.get(key) ?? 0) + 1;
    if (timesSeen > COMES_BACK) return ended(moves + 1, 'A position came back');
    seen.set(key, timesSeen);
  }
  return ended(MAX_MOVES, `Still playing after ${MAX_MOVES} moves`);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const results: Played[] = [];
const began = performance.now();
/** Records a finished game: the `--out` line and a line of progress. */
function record(played: Played): void {
  results.push(played);
  const ms = played.times.reduce((sum, t) => sum + t, 0);
  if (values.out !== undefined) {
    const { times, ...line } = played;
    const hintMs = times.map((t) => Math.round(10 * t) / 10);
    appendFileSync(values.out, `${JSON.stringify({ ...line, ms: Math.round(ms), hintMs })}\n`);
  }
  const wins = results.filter((r) => r.won).length;
  const seconds = ((performance.now() - began) / 1000).toFixed(0);
  process.stderr.write(
    `  seed ${played.seed}: ${played.won ? 'won' : played.ending} (${played.moves} moves, ${(ms / 1000).toFixed(1)} s); ${wins}/${results.length} won, ${seconds} s\n`,
  );
}
const seedOf = (i: number) => from + i;

if (slice !== undefined) {
  for (let i = slice; i < deals; i += jobs) console.log(JSON.stringify(playByHints(seedOf(i))));
  process.exit(0);
}
if (jobs === 1) {
  for (let i = 0; i < deals; i++) record(playByHints(seedOf(i)));
} else {
  await runJobs<Played>(jobs, record);
}
results.sort((a, b) => a.seed - b.seed);

const wins = results.filter((r) => r.won).length;
const [low, high] = wilson(wins, results.length);
const rulesName = `draw ${draw}, ${passes === null ? 'unlimited passes' : `${passes} pass${passes === 1 ? '' : 'es'}`}`;
console.log(`hintbot: ${rulesName}, seeds ${from}..${from + deals - 1}`);
console.log(
  `  won ${wins} of ${results.length}: ${pct(wins / results.length)} (95% CI ${pct(low)}-${pct(high)})`,
);
const endings = new Map<string, number>();
for (const r of results) if (r.ending !== null) endings.set(r.ending, (endings.get(r.ending) ?? 0) + 1);
for (const [ending, count] of [...endings].sort((a, b) => b[1] - a[1])) console.log(`  ${count} x ${ending}`);
const times = results.flatMap((r) => r.times).sort((a, b) => a - b);
// A game's hints are not independent of each other (a hard deal's are all slow): the intervals
// resample whole games.
const ms = (q: number) =>
  withInterval(
    percentile(times, q),
    groupedQuantileInterval(
      results.map((r) => r.times),
      q,
    ),
    1,
    ' ms',
  );
console.log(
  `  ${times.length} hints: median ${ms(0.5)}, p90 ${ms(0.9)}, p99 ${ms(0.99)}, max ${times.at(-1)!.toFixed(1)} ms`,
);
const slowest = results
  .flatMap((r) => r.times.map((ms, move) => ({ seed: r.seed, move, ms })))
  .reduce((a, b) => (b.ms > a.ms ? b : a));
console.log(
  `  slowest hint: seed ${slowest.seed}, before move ${slowest.move + 1}, ${slowest.ms.toFixed(0)} ms`,
);
if (values['where-lost']) {
  const analysed = results.filter((r) => r.lost !== undefined).map((r) => r.lost!);
  const deals = (verdict: string) => analysed.filter((lost) => lost.deal === verdict).length;
  console.log(
    `  where the ${analysed.length} games not won were lost: the deal was winnable in ${deals('winnable')}, lost in ${deals('lost')}, undecided in ${deals('unknown')}`,
  );
  const located = analysed.filter((lost) => lost.kind !== undefined);
  const count = (key: (lost: WhereLost) => string) => {
    const counts = new Map<string, number>();
    for (const lost of located) counts.set(key(lost), (counts.get(key(lost)) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  };
  console.log(
    `  the move that lost a winnable deal (${located.length} located): ${count((lost) => lost.kind!)}`,
  );
  console.log(`  in pass: ${count((lost) => String(lost.pass))}`);
  console.log(`  kind and pass: ${count((lost) => `${lost.kind} in pass ${lost.pass}`)}`);
}
const perGame = results.map((r) => r.times.reduce((sum, t) => sum + t, 0) / 1000).sort((a, b) => a - b);
console.log(
  `  per game: median ${withInterval(percentile(perGame, 0.5), quantileInterval(perGame, 0.5), 1, ' s')}, max ${perGame.at(-1)!.toFixed(1)} s; total ${((performance.now() - began) / 1000).toFixed(0)} s`,
);
