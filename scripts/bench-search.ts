/**
 * The search's raw speed on a fixed set of deals, counted in nodes so that runs compare on any
 * machine: `npm run bench:search -- [--deals 60] [--from 0] [--nodes 200000] [--passes 3|unlimited]`.
 * Solves each numbered deal within the node budget (no clock) and prints the verdicts, the nodes and
 * positions in all, the CPU time and the nodes per second, and a checksum of every deal's verdict and
 * node count: two versions of the search that try the same moves in the same order print the same
 * checksum.
 */
import type { Rules } from '../domain/rules.js';
import { deckFromSeed, MAX_SEED } from '../domain/shuffle.js';
import { solve } from '../domain/solver/index.js';
import { parseScriptArgs, passesOf, wholeNumber } from '../infra/local/args.js';

const USAGE = 'npm run bench:search -- [--deals 60] [--from 0] [--nodes 200000] [--passes 3|unlimited]';
const { values } = parseScriptArgs(
  {
    options: {
      deals: { type: 'string', default: '60' },
      from: { type: 'string', default: '0' },
      nodes: { type: 'string', default: '200000' },
      passes: { type: 'string', default: '3' },
    },
  },
  USAGE,
);
const from = wholeNumber('from', values.from, 0, MAX_SEED, USAGE);
const deals = wholeNumber('deals', values.deals, 1, MAX_SEED - from + 1, USAGE);
const nodes = wholeNumber('nodes', values.nodes, 1, Number.MAX_SAFE_INTEGER, USAGE);
const passes = passesOf(values.passes, USAGE);
const rules: Rules = { draw: 3, passes, foundationToTableau: true };

const counts = { won: 0, lost: 0, unknown: 0 };
let total = 0;
let positions = 0;
let checksum = 0;
const cpu = () => process.cpuUsage().user / 1000;
const began = cpu();
for (let seed = from; seed < from + deals; seed++) {
  const solved = solve(deckFromSeed(seed), rules, { nodes });
  counts[solved.result]++;
  total += solved.stats.nodes;
  positions += solved.stats.positions;
  const verdict = solved.result === 'won' ? 1 : solved.result === 'lost' ? 2 : 3;
  checksum = (Math.imul(checksum, 31) + solved.stats.nodes * 4 + verdict) >>> 0;
}
const ms = cpu() - began;
console.log(
  `seeds ${from}..${from + deals - 1}, draw 3, ${passes ?? 'unlimited'} passes, ${nodes} nodes a deal: ` +
    `won ${counts.won} lost ${counts.lost} unknown ${counts.unknown}`,
);
console.log(
  `  ${total} nodes, ${positions} positions, ${ms.toFixed(0)} ms CPU: ${((total / ms) * 1000).toFixed(0)} nodes/s; checksum ${checksum.toString(16)}`,
);
