import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDealString, parseDealString } from '../../domain/cards.js';
import { deal } from '../../domain/game.js';
import { checkHistory } from '../../domain/replay.js';
import { HOUSE_RULES } from '../../domain/rules.js';
import { deckFromSeed } from '../../domain/shuffle.js';
import {
  type DealRecord,
  readDecks,
  readTable,
  studyDeal,
  studyRelaxed,
  TABLE_HEADER,
} from '../../scripts/study-deals.js';

describe('the study of deals', () => {
  it('reads a deals file: one 156-digit string a line, blank lines and # comments skipped', () => {
    const text = `# two deals\n${formatDealString(deckFromSeed(0))}\n\n  ${formatDealString(deckFromSeed(1))}\r\n`;
    expect(readDecks(text)).toEqual([deckFromSeed(0), deckFromSeed(1)]);
    expect(() => readDecks(`${formatDealString(deckFromSeed(0))}\n123\n`)).toThrow(/^line 2: /);
  });

  it('records a deal with its verdict, time, nodes and, when won, a line the domain replays to a win', () => {
    const record = studyDeal(deckFromSeed(0), HOUSE_RULES, 5_000);
    expect(record.verdict).toBe('won');
    expect(record.nodes).toBeGreaterThan(0);
    expect(record.ms).toBeGreaterThanOrEqual(0);
    const deck = parseDealString(record.deck);
    expect(deck).toEqual(deckFromSeed(0));
    const replayed = checkHistory(deal(deckFromSeed(0), null, HOUSE_RULES), record.line!);
    expect(replayed.ok && replayed.state.status).toBe('won');
    // A lost deal (seed 1 is lost at the start under the house rules) has no line.
    const lost = studyDeal(deckFromSeed(1), HOUSE_RULES, 5_000);
    expect(lost.verdict).toBe('lost');
    expect(lost).not.toHaveProperty('line');
  });

  it('decides a three-pass deal by the search with unlimited passes: lost is lost, a line of two recycles wins, more is undecided', () => {
    const drawOne = { ...HOUSE_RULES, draw: 1 } as const;
    // Seed 7 at draw 1: the unlimited search's line recycles twice, and wins with three passes.
    const won = studyRelaxed(deckFromSeed(7), drawOne, 5_000);
    expect(won.verdict).toBe('won');
    expect(won.rules).toEqual(drawOne);
    const replayed = checkHistory(deal(deckFromSeed(7), null, drawOne), won.line!);
    expect(replayed.ok && replayed.state.status).toBe('won');
    // Seed 0 at draw 1 is won with three passes, but the unlimited search's line recycles more often.
    expect(studyDeal(deckFromSeed(0), drawOne, 5_000).verdict).toBe('won');
    const more = studyRelaxed(deckFromSeed(0), drawOne, 5_000);
    expect(more.verdict).toBe('unknown');
    expect(more).not.toHaveProperty('line');
    // Seed 1 is lost under the house rules even with unlimited passes.
    expect(studyRelaxed(deckFromSeed(1), HOUSE_RULES, 5_000).verdict).toBe('lost');
    // Seed 7 at draw 3 is lost with three passes and won with unlimited ones: never called lost.
    expect(studyDeal(deckFromSeed(7), HOUSE_RULES, 5_000).verdict).toBe('lost');
    expect(studyRelaxed(deckFromSeed(7), HOUSE_RULES, 5_000).verdict).toBe('unknown');
  });

  it('npm run study --decks FILE --out FILE --table FILE writes one line per deal and rule set to each', () => {
    const dir = mkdtempSync(join(tmpdir(), 'study-'));
    try {
      const decks = join(dir, 'decks.txt');
      const out = join(dir, 'out.jsonl');
      const table = join(dir, 'table.tsv');
      writeFileSync(decks, `${formatDealString(deckFromSeed(0))}\n${formatDealString(deckFromSeed(1))}\n`);
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/study.ts',
          '--decks',
          decks,
          '--out',
          out,
          '--table',
          table,
          '--budget-ms',
          '2000',
        ],
        { encoding: 'utf8' },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(`2 deals of ${decks}`);
      const records = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as DealRecord);
      expect(records.map((r) => [r.deck, r.rules.passes, r.verdict])).toEqual([
        [formatDealString(deckFromSeed(0)), 3, 'won'],
        [formatDealString(deckFromSeed(1)), 3, 'lost'],
        [formatDealString(deckFromSeed(0)), null, 'won'],
        [formatDealString(deckFromSeed(1)), null, 'lost'],
      ]);
      // The table: the deals by their place in the file, with the same verdicts and nodes.
      const rows = readFileSync(table, 'utf8').trim().split('\n');
      expect(rows[0]).toBe('draw\tpasses\tdeal\tverdict\tnodes\tms');
      expect(rows.slice(1).map((row) => row.split('\t').slice(0, 5))).toEqual(
        records.map((r, i) => [
          '3',
          String(r.rules.passes ?? 'unlimited'),
          String(i % 2),
          r.verdict,
          String(r.nodes),
        ]),
      );
      for (const record of records) {
        expect(Object.keys(record).sort()).toEqual(
          ['deck', 'rules', 'verdict', 'ms', 'nodes', ...(record.verdict === 'won' ? ['line'] : [])].sort(),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm run study --again TABLE studies the deals the table left undecided and writes the table with them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'study-'));
    try {
      const earlier = join(dir, 'earlier.tsv');
      const table = join(dir, 'table.tsv');
      const rows = [
        TABLE_HEADER,
        '3\t3\t0\tunknown\t1024\t1.0',
        '3\t3\t1\tunknown\t1024\t1.0',
        '3\t3\t2\tlost\t7\t0.5',
        '3\tunlimited\t1\tunknown\t1024\t1.0',
      ];
      writeFileSync(earlier, `${rows.join('\n')}\n`);
      const study = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', 'scripts/study.ts', ...args], { encoding: 'utf8' });
      const run = study('--again', earlier, '--passes', '3', '--budget-ms', '2000', '--table', table);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(`the 2 deals ${earlier} left undecided`);
      // The whole table as it now stands: seed 0 won, seeds 1 and 2 lost (seed 2 as the earlier run had it).
      expect(run.stdout).toMatch(/every deal of .* with these verdicts\n {2}won 1 {2}lost 2 {2}unknown 0/);
      const after = readTable(readFileSync(table, 'utf8'));
      expect(after.map((row) => [row.passes, row.deal, row.verdict])).toEqual([
        [3, 0, 'won'],
        [3, 1, 'lost'],
        [3, 2, 'lost'],
        [null, 1, 'unknown'],
      ]);
      // The deals studied again carry their new nodes; the others are the earlier rows as they were.
      expect(after[0]!.nodes).toBe(studyDeal(deckFromSeed(0), HOUSE_RULES, 2_000).nodes);
      expect(after[2]).toEqual(readTable(`${rows[0]}\n${rows[3]}\n`)[0]);

      // --relaxed: the three-pass deals by the search with unlimited passes (seed 1 lost).
      const relaxed = study('--again', earlier, '--passes', '3', '--budget-ms', '2000', '--relaxed');
      expect(relaxed.status, relaxed.stderr).toBe(0);
      expect(relaxed.stdout).toContain('a deal, decided by the search with unlimited passes)');
      expect(relaxed.stdout).toMatch(/left undecided, [^\n]*\n {2}won 0 {2}lost 1 {2}unknown 1\n/);

      // With --decks, the table's deals are places in the file (a table of a --decks run): place 2
      // is seed 1's deal, lost at the start, and not seed 2's.
      const decks = join(dir, 'decks.txt');
      writeFileSync(decks, `${[0, 0, 1].map((seed) => formatDealString(deckFromSeed(seed))).join('\n')}\n`);
      const ofFile = join(dir, 'of-file.tsv');
      writeFileSync(ofFile, `${TABLE_HEADER}\n3\t3\t2\tunknown\t1\t1.0\n`);
      const out = join(dir, 'again.jsonl');
      const placed = study(
        '--again',
        ofFile,
        '--decks',
        decks,
        '--passes',
        '3',
        '--budget-ms',
        '2000',
        '--out',
        out,
      );
      expect(placed.status, placed.stderr).toBe(0);
      expect(placed.stdout).toContain(`the 1 deal ${ofFile} left undecided (places in ${decks})`);
      const beyond = join(dir, 'beyond.tsv');
      writeFileSync(beyond, `${TABLE_HEADER}\n3\t3\t1\tunknown\t1\t1.0\n3\t3\t5\tunknown\t1\t1.0\n`);
      const [again] = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as DealRecord);
      expect([again!.deck, again!.verdict]).toEqual([formatDealString(deckFromSeed(1)), 'lost']);

      // Every script says its usage when asked.
      const help = study('--help');
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^usage: npm run study -- /);

      const broken = join(dir, 'broken.tsv');
      writeFileSync(broken, `${TABLE_HEADER}\n3\t3\tseven\twon\t1\t1.0\n`);
      const refused = study('--again', broken, '--passes', '3');
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(
        `--again ${broken}: line 2: not draw, passes, deal, verdict, nodes and ms`,
      );

      // A deal past the last seed is no seed (nor a place in a file of deals).
      expect(readTable(`${TABLE_HEADER}\n3\t3\t4294967295\tunknown\t0\t0\n`)[0]!.deal).toBe(4294967295);
      expect(() => readTable(`${TABLE_HEADER}\n3\t3\t4294967296\tunknown\t0\t0\n`)).toThrow(/^line 2: /);

      // Refused before any deal is studied, naming the option: a number that is none, jobs past
      // two a core, seeds past the last, a table that cannot be written (it was written at the end).
      for (const [args, said] of [
        [['--jobs', '1e3'], '--jobs takes a whole number from 1 to'],
        [['--jobs', '1000'], '--jobs takes a whole number from 1 to'],
        [['--start', '4294967295', '--deals', '2'], '--deals takes a whole number from 1 to 1, not "2"'],
        [
          ['--deals', '1', '--table', join(dir, 'no-such-folder', 't.tsv')],
          `--table ${join(dir, 'no-such-folder', 't.tsv')} cannot be written`,
        ],
        // A table whose deals are not all places in the file given with it.
        [
          ['--again', beyond, '--decks', decks, '--passes', '3'],
          `--again ${beyond} has deal 5 undecided, but --decks ${decks} holds deals 0..2`,
        ],
        // A table of other rules than those asked: it has nothing to study again.
        [
          ['--again', earlier, '--draw', '1'],
          `--again ${earlier} holds no deal of draw 1, 3 passes nor of draw 1, unlimited passes`,
        ],
      ] as const) {
        const run = study(...args);
        expect(run.status, args.join(' ')).toBe(2);
        expect(run.stderr.split('\n')[0]).toContain(said);
        expect(run.stdout).toBe('');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
