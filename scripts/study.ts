/**
 * How often the solver decides random deals, and how fast: `npm run study -- [--deals N] [--start S]
 * [--budget-ms 1000] [--clock cpu|wall] [--jobs J] [--decks FILE] [--again TABLE] [--out FILE]
 * [--table FILE] [--passes 3,unlimited] [--draw 3|1] [--relaxed]`. Classifies the numbered deals S..S+N-1 (or, with `--decks`,
 * the deals of FILE, one 156-digit deal string a line, the first N of them if N is given; with
 * `--again`, the deals an earlier run's `--table` left undecided, at this run's budget: seeds, or
 * with `--decks` too their places in FILE, as that run's table gives them) under draw
 * 3 with 3 passes, then under draw 3 with unlimited passes (`--passes 3` or `--passes unlimited` for
 * one of them; `--draw 1` for draw 1), and prints for each the verdicts, the winnable share of the
 * decided deals with a 95% Wilson interval, the share left undecided, and the time per deal (median,
 * p90 and p99, each with its 95% interval). The budget and the times are the process's CPU time
 * (`--clock wall` for the wall clock), so that other work on the machine does not eat into a deal's
 * second. With `--out FILE`, writes one JSON line per
 * deal and rule set (`{ deck, rules, verdict, ms, nodes, line? }`, see `study-deals.ts`); with
 * `--table FILE`, one tab-separated line per deal and rule set (seed, verdict, nodes, ms); with
 * `--again`, the earlier table with the deals studied again in their places, and the report covers
 * both the deals studied again and the whole table as it now stands. With
 * `--jobs J`, J processes share the deals (each deal still gets its budget on one core). With
 * `--relaxed`, the three-pass deals are decided by the search with unlimited passes instead
 * (`studyRelaxed`: lost with unlimited passes is lost with three, a line that recycles at most twice
 * wins, anything else is undecided), a step for the deals a long three-pass search left undecided.
 */
import { openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import type { Card } from '../domain/cards.js';
import type { Rules } from '../domain/rules.js';
import { deckFromSeed, MAX_SEED } from '../domain/shuffle.js';
import { MOST_JOBS, parseScriptArgs, refuse, wholeNumber, writable } from '../infra/local/args.js';
import { clockNamed, clockOf } from './clock.js';
import { runJobs } from './jobs.js';
import { percentile, quantileInterval, wilson, withInterval } from './stats.js';
import {
  type DealRecord,
  formatRow,
  readDecks,
  readTable,
  studyDeal,
  studyRelaxed,
  TABLE_HEADER,
  type TableRow,
  type Verdict,
} from './study-deals.js';

const USAGE =
  'npm run study -- [--deals N] [--start S] [--budget-ms 1000] [--clock cpu|wall] [--jobs J] [--decks FILE] [--again TABLE] [--out FILE] [--table FILE] [--passes 3,unlimited] [--draw 3|1] [--relaxed]';
const { values } = parseScriptArgs(
  {
    options: {
      deals: { type: 'string' },
      start: { type: 'string', default: '0' },
      'budget-ms': { type: 'string', default: '1000' },
      jobs: { type: 'string', default: '1' },
      decks: { type: 'string' },
      // An earlier run's --table: its undecided deals are studied again, at this run's budget.
      again: { type: 'string' },
      // The rule sets: 3 passes, unlimited passes, or both (the default), with draw 3 or draw 1.
      passes: { type: 'string', default: '3,unlimited' },
      draw: { type: 'string', default: '3' },
      // Three-pass deals decided by the search with unlimited passes (`studyRelaxed`).
      relaxed: { type: 'boolean', default: false },
      out: { type: 'string' },
      table: { type: 'string' },
      // What the budget counts: the CPU time of the process (the default: a deal's time is its own on a
      // machine shared with other work) or the wall clock.
      clock: { type: 'string', default: 'cpu' },
      // Internal: this process is job `slice` of `jobs` and prints one JSON line per deal.
      slice: { type: 'string' },
    },
  },
  USAGE,
);
/** What the file an option names holds, read with `read`; one line saying why not, exit 2. */
function fileOf<T>(name: string, path: string | undefined, read: (text: string) => T): T | undefined {
  if (path === undefined) return undefined;
  try {
    return read(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`--${name} ${path}: ${(error as Error).message}`);
    process.exit(2);
  }
}
/** The deals of the file, when there is one; otherwise the numbered deals from `start`. */
const fromFile: Card[][] | undefined = fileOf('decks', values.decks, readDecks);
/** With `--again`, the earlier run's table. */
const earlier: TableRow[] | undefined = fileOf('again', values.again, readTable);
const start = wholeNumber('start', values.start, 0, MAX_SEED, USAGE);
// The numbered deals stop at the last seed: they never start again from seed 0.
const deals =
  values.deals === undefined
    ? Math.min(fromFile ? fromFile.length : 1000, MAX_SEED - start + 1)
    : wholeNumber('deals', values.deals, 1, fromFile ? fromFile.length : MAX_SEED - start + 1, USAGE);
const budgetMs = Number(values['budget-ms']);
const jobs = wholeNumber('jobs', values.jobs, 1, MOST_JOBS, USAGE);
if (!/^\d+(\.\d+)?$/.test(values['budget-ms']) || !(budgetMs > 0) || budgetMs > 3_600_000)
  refuse(
    `--budget-ms takes a number of milliseconds more than 0 and at most an hour, not ${JSON.stringify(values['budget-ms'])}`,
    USAGE,
  );
if (earlier !== undefined && (values.deals !== undefined || values.start !== '0'))
  refuse('--again studies the deals its table left undecided: it takes no --deals or --start', USAGE);
const clockName = clockNamed(values.clock, USAGE);
if (values.draw !== '3' && values.draw !== '1')
  refuse(`--draw is 1 or 3, not ${JSON.stringify(values.draw)}`, USAGE);

const draw = values.draw === '1' ? 1 : 3;
const ALL_RULE_SETS: { name: string; option: string; rules: Rules }[] = [
  { name: `draw ${draw}, 3 passes`, option: '3', rules: { draw, passes: 3, foundationToTableau: true } },
  {
    name: `draw ${draw}, unlimited passes`,
    option: 'unlimited',
    rules: { draw, passes: null, foundationToTableau: true },
  },
];
const RULE_SETS = ALL_RULE_SETS.filter(({ option }) => values.passes.split(',').includes(option));
if (
  RULE_SETS.length === 0 ||
  values.passes.split(',').some((option) => option !== '3' && option !== 'unlimited')
)
  refuse(`--passes is 3, unlimited or 3,unlimited, not ${JSON.stringify(values.passes)}`, USAGE);
const slice = values.slice === undefined ? undefined : wholeNumber('slice', values.slice, 0, jobs - 1, USAGE);
// Last, once the rest is known good: a refused run leaves no file behind.
if (slice === undefined) {
  if (values.table !== undefined) writable('table', values.table);
  if (values.out !== undefined) writable('out', values.out);
}

interface Record extends DealRecord {
  readonly set: number;
  /** The deal's place among those studied, from 0. */
  readonly at: number;
}

const clock = clockOf(clockName);

const sameRules = (row: TableRow, rules: Rules) => row.draw === rules.draw && row.passes === rules.passes;
/**
 * With `--again`, by rule set, the deals the earlier table left undecided: seeds, or places in the
 * `--decks` file.
 */
const undecided = RULE_SETS.map(({ rules }) =>
  (earlier ?? []).filter((row) => sameRules(row, rules) && row.verdict === 'unknown').map((row) => row.deal),
);
if (earlier !== undefined) {
  const missing = RULE_SETS.filter(({ rules }) => !earlier.some((row) => sameRules(row, rules)));
  // Of the rule sets asked (both by default), at least one must be the table's.
  if (missing.length === RULE_SETS.length) {
    console.error(
      `--again ${values.again} holds no deal of ${missing.map(({ name }) => name).join(' nor of ')}: study it with the rules of its table (--passes, --draw)`,
    );
    process.exit(2);
  }
}
// A table's deals are seeds, or with --decks places in the file: a place past its end is another file's.
const pastTheFile = fromFile ? undecided.flat().find((deal) => deal >= fromFile.length) : undefined;
if (pastTheFile !== undefined) {
  console.error(
    `--again ${values.again} has deal ${pastTheFile} undecided, but --decks ${values.decks} holds deals 0..${fromFile!.length - 1}: give the file its table was made from`,
  );
  process.exit(2);
}
/** The deals studied under rule set `set`, and the seed (or place in the file) of deal i among them. */
const dealCount = (set: number) => (earlier ? undecided[set]!.length : deals);
const dealOf = (set: number, i: number) => (earlier ? undecided[set]![i]! : fromFile ? i : start + i);
const deckAt = (set: number, i: number): readonly Card[] =>
  fromFile ? fromFile[dealOf(set, i)]! : deckFromSeed(dealOf(set, i));
const dealsName = (set: number) =>
  earlier
    ? `the ${dealCount(set)} deal${dealCount(set) === 1 ? '' : 's'} ${values.again} left undecided${fromFile ? ` (places in ${values.decks})` : ''}`
    : fromFile
      ? `${deals} deals of ${values.decks}`
      : `seeds ${start}..${start + deals - 1}`;

const study = values.relaxed ? studyRelaxed : studyDeal;

/** Classifies the deals i (0 <= i < dealCount(set)) with i % of === slice, under one rule set. */
function* classify(set: number, slice: number, of: number): Generator<Record> {
  for (let i = slice; i < dealCount(set); i += of)
    yield { set, at: i, ...study(deckAt(set, i), RULE_SETS[set]!.rules, budgetMs, clock) };
}

/**
 * The `--out` file, one JSON line per deal and rule set, in the order the deals are decided, written
 * as each is decided (a run cut short keeps what it did).
 */
const out = values.out === undefined || slice !== undefined ? undefined : openSync(values.out, 'w');
const write = (record: Record) => {
  const { set: _, at: __, ...line } = record;
  if (out !== undefined) writeSync(out, `${JSON.stringify(line)}\n`);
};

/** A record as a line of the table. */
const rowOf = (r: Record): TableRow => {
  const { draw, passes } = RULE_SETS[r.set]!.rules;
  return { draw, passes, deal: dealOf(r.set, r.at), verdict: r.verdict, nodes: r.nodes, ms: r.ms };
};

/**
 * The table's rows: by rule set, one per deal in the order of the deals. With `--again`, the earlier
 * table's rows, each deal studied again in its place with this run's verdict, nodes and milliseconds.
 */
function tableRows(bySet: readonly (readonly Record[])[]): TableRow[] {
  const rows = bySet.flatMap((records) => [...records].sort((a, b) => a.at - b.at).map(rowOf));
  if (earlier === undefined) return rows;
  const key = (row: TableRow) => `${row.draw} ${row.passes} ${row.deal}`;
  const again = new Map(rows.map((row) => [key(row), row]));
  return earlier.map((row) => again.get(key(row)) ?? row);
}

/**
 * The `--table` file: one tab-separated line per deal and rule set, with the deal's seed (or, with
 * `--decks`, its place in the file from 0), the verdict, the nodes and the milliseconds: the
 * study's verdicts, small enough to keep beside the docs.
 */
function writeTable(file: string, rows: readonly TableRow[]): void {
  writeFileSync(file, `${[TABLE_HEADER, ...rows.map(formatRow)].join('\n')}\n`);
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** Prints the verdicts of `records`, the deals of `name`, with their intervals and times. */
function report(name: string, records: readonly { verdict: Verdict; ms: number }[]): void {
  const counts = { won: 0, lost: 0, unknown: 0 };
  for (const record of records) counts[record.verdict]++;
  const times = records.map((record) => record.ms).sort((a, b) => a - b);
  const ms = (q: number) => withInterval(percentile(times, q), quantileInterval(times, q), 1, ' ms');
  const decided = counts.won + counts.lost;
  const [low, high] = wilson(counts.won, decided);
  console.log(name);
  if (records.length === 0) return;
  console.log(`  won ${counts.won}  lost ${counts.lost}  unknown ${counts.unknown}`);
  console.log(
    `  winnable share of decided deals: ${pct(decided ? counts.won / decided : Number.NaN)} (95% CI ${pct(low)}-${pct(high)}, n = ${decided})`,
  );
  console.log(`  undecided: ${pct(counts.unknown / records.length)}`);
  // The share of all deals winnable, bracketed: undecided deals counted lost for the low end, won for the high.
  const all = records.length;
  console.log(
    `  winnable share of all deals, undecided counted both ways: ${pct(counts.won / all)}-${pct((counts.won + counts.unknown) / all)} (95% CI ${pct(wilson(counts.won, all)[0])}-${pct(wilson(counts.won + counts.unknown, all)[1])}, n = ${all})`,
  );
  console.log(`  time per deal: median ${ms(0.5)}, p90 ${ms(0.9)}, p99 ${ms(0.99)}`);
}

/** Progress on stderr every 100 deals of a rule set. */
function progress(set: number, records: readonly Record[], began: number): void {
  if (records.length % 100 !== 0) return;
  const count = (verdict: Verdict) => records.filter((record) => record.verdict === verdict).length;
  const seconds = ((performance.now() - began) / 1000).toFixed(0);
  process.stderr.write(
    `  ${RULE_SETS[set]!.name}: ${records.length}/${dealCount(set)} won ${count('won')} lost ${count('lost')} unknown ${count('unknown')} (${seconds} s)\n`,
  );
}

if (slice !== undefined) {
  for (let set = 0; set < RULE_SETS.length; set++) {
    for (const record of classify(set, slice, jobs)) console.log(JSON.stringify(record));
  }
} else {
  const bySet: Record[][] = RULE_SETS.map(() => []);
  if (jobs === 1) {
    for (let set = 0; set < RULE_SETS.length; set++) {
      const began = performance.now();
      for (const record of classify(set, 0, 1)) {
        bySet[set]!.push(record);
        write(record);
        progress(set, bySet[set]!, began);
      }
    }
  } else {
    const began = performance.now();
    await runJobs<Record>(jobs, (record) => {
      bySet[record.set]!.push(record);
      write(record);
      progress(record.set, bySet[record.set]!, began);
    });
  }
  const clockWords = clockName === 'wall' ? 'wall-clock' : 'CPU';
  const rows = tableRows(bySet);
  bySet.forEach((records, set) => {
    const { name, rules } = RULE_SETS[set]!;
    const by = values.relaxed && rules.passes !== null ? ', decided by the search with unlimited passes' : '';
    report(`${name} (${dealsName(set)}, budget ${budgetMs} ms of ${clockWords} time a deal${by})`, records);
    // With --again, the whole table as it now stands (each deal's time is that of its last run).
    if (earlier !== undefined)
      report(
        `${name}, every deal of ${values.again} with these verdicts`,
        rows.filter((row) => sameRules(row, rules)),
      );
  });
  if (values.table !== undefined) writeTable(values.table, rows);
}
