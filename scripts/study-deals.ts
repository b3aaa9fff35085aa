/**
 * The study's deals and records, apart from its command line so that tests can use them: a deals file
 * (one 156-digit deal string a line, docs/rules.md) and one JSON line per deal solved, which
 * anyone can check elsewhere (replay the line, or solve the deck with another solver).
 */
import { type Card, formatDealString, isDeckError, parseDealString } from '../domain/cards.js';
import type { PlayedMove } from '../domain/moves.js';
import type { Rules } from '../domain/rules.js';
import { MAX_SEED } from '../domain/shuffle.js';
import { solve } from '../domain/solver/index.js';

export type Verdict = 'won' | 'lost' | 'unknown';

/** What the study writes for one deal under one rule set (`--out`). */
export interface DealRecord {
  /** The deal as a 156-digit string. */
  readonly deck: string;
  readonly rules: Rules;
  readonly verdict: Verdict;
  /** Wall-clock time of the solve, in milliseconds. */
  readonly ms: number;
  /** The solver's nodes (moves tried). */
  readonly nodes: number;
  /** For a won deal: the moves, as `POST /games/{id}/moves` takes them, that win from the deal. */
  readonly line?: readonly PlayedMove[];
}

/**
 * The decks of a deals file: one 156-digit string a line; blank lines and lines starting with `#` are
 * skipped. Throws on the first line that is not a deal, naming it.
 */
export function readDecks(text: string): Card[][] {
  const decks: Card[][] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const deck = parseDealString(line);
    if (isDeckError(deck)) throw new Error(`line ${i + 1}: ${deck.problem}`);
    decks.push(deck);
  }
  return decks;
}

/** Solves one deal within `budgetMs` of wall-clock time (any number of nodes). */
export function studyDeal(
  deck: readonly Card[],
  rules: Rules,
  budgetMs: number,
  now: () => number = () => performance.now(),
): DealRecord {
  const t0 = now();
  const solved = solve(deck, rules, { nodes: Number.MAX_SAFE_INTEGER, now, deadline: t0 + budgetMs });
  const ms = now() - t0;
  const record = {
    deck: formatDealString(deck),
    rules,
    verdict: solved.result,
    ms,
    nodes: solved.stats.nodes,
  };
  return solved.result === 'won' ? { ...record, line: solved.line } : record;
}

/**
 * Decides a deal under `rules` (limited passes) by the search with unlimited passes, within
 * `budgetMs`: a deal lost with unlimited passes is lost with any number, and a winning line that
 * recycles at most `passes - 1` times wins with `passes` too; any other outcome leaves it undecided.
 * On draw-1 deals that the search with three passes proves lost only after a minute, it proves them
 * lost in about half the time (docs/solver.md). The record carries `rules` and the unlimited
 * search's time and nodes.
 */
export function studyRelaxed(
  deck: readonly Card[],
  rules: Rules,
  budgetMs: number,
  now: () => number = () => performance.now(),
): DealRecord {
  if (rules.passes === null) return studyDeal(deck, rules, budgetMs, now);
  const { verdict, ms, nodes, line } = studyDeal(deck, { ...rules, passes: null }, budgetMs, now);
  const recycles = line?.filter((move) => move.type === 'recycle').length ?? 0;
  const record = { deck: formatDealString(deck), rules, ms, nodes };
  if (verdict === 'won' && line !== undefined && recycles < rules.passes) return { ...record, verdict, line };
  return { ...record, verdict: verdict === 'lost' ? 'lost' : 'unknown' };
}

/** One line of a study's table (`--table`): a deal, by its seed, under one rule set. */
export interface TableRow {
  readonly draw: 1 | 3;
  /** Null for unlimited passes. */
  readonly passes: number | null;
  readonly deal: number;
  readonly verdict: Verdict;
  readonly nodes: number;
  readonly ms: number;
}

export const TABLE_HEADER = 'draw\tpasses\tdeal\tverdict\tnodes\tms';

export const formatRow = (row: TableRow): string =>
  [row.draw, row.passes ?? 'unlimited', row.deal, row.verdict, row.nodes, row.ms.toFixed(1)].join('\t');

/** The rows of a study's table; throws on the first line that is not one, naming it. */
export function readTable(text: string): TableRow[] {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== TABLE_HEADER) throw new Error(`line 1: not the header "${TABLE_HEADER}"`);
  const rows: TableRow[] = [];
  for (const [i, raw] of lines.entries()) {
    if (i === 0 || raw.trim() === '') continue;
    const [draw, passes, deal, verdict, nodes, ms, ...rest] = raw.trim().split('\t');
    const row = {
      draw: Number(draw) as 1 | 3,
      passes: passes === 'unlimited' ? null : Number(passes),
      deal: Number(deal),
      verdict: verdict as Verdict,
      nodes: Number(nodes),
      ms: Number(ms),
    };
    if (
      rest.length > 0 ||
      (row.draw !== 1 && row.draw !== 3) ||
      !(row.passes === null || (Number.isInteger(row.passes) && row.passes >= 1)) ||
      !Number.isInteger(row.deal) ||
      row.deal < 0 ||
      row.deal > MAX_SEED ||
      !['won', 'lost', 'unknown'].includes(row.verdict) ||
      !Number.isInteger(row.nodes) ||
      !(row.ms >= 0)
    ) {
      throw new Error(`line ${i + 1}: not draw, passes, deal, verdict, nodes and ms separated by tabs`);
    }
    rows.push(row);
  }
  return rows;
}
