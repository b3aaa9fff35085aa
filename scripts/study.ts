/**
 * How often the solver decides random deals, and how fast: `npm run study -- --deals N [--start S]
 * [--budget-ms 1000]`. Classifies the numbered deals S..S+N-1 under draw 3 with 3 passes, then under
 * draw 3 with unlimited passes, and prints for each the verdicts, the winnable share of the decided
 * deals with a 95% Wilson interval, the share left undecided, and the time per deal.
 */
import { parseArgs } from 'node:util';
import type { Rules } from '../domain/rules.js';
import { deckFromSeed, MAX_SEED } from '../domain/shuffle.js';
import { solve } from '../domain/solver/index.js';

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '1000' },
    start: { type: 'string', default: '0' },
    'budget-ms': { type: 'string', default: '1000' },
  },
});
const deals = Number(values.deals);
const start = Number(values.start);
const budgetMs = Number(values['budget-ms']);
if (!Number.isInteger(deals) || deals < 1 || !Number.isInteger(start) || start < 0 || !(budgetMs > 0)) {
  console.error('usage: npm run study -- --deals N [--start S] [--budget-ms 1000]');
  process.exit(2);
}

/** Wilson score interval for k successes in n trials, 95%. */
function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [centre - half, centre + half];
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function study(name: string, rules: Rules): void {
  const counts = { won: 0, lost: 0, unknown: 0 };
  const times: number[] = [];
  const began = performance.now();
  for (let i = 0; i < deals; i++) {
    const seed = (start + i) % (MAX_SEED + 1);
    const deck = deckFromSeed(seed);
    const t0 = performance.now();
    const result = solve(deck, rules, {
      nodes: Number.MAX_SAFE_INTEGER,
      now: () => performance.now(),
      deadline: t0 + budgetMs,
    });
    times.push(performance.now() - t0);
    counts[result.result]++;
    if ((i + 1) % 100 === 0) {
      const s = ((performance.now() - began) / 1000).toFixed(0);
      process.stderr.write(
        `  ${name}: ${i + 1}/${deals} won ${counts.won} lost ${counts.lost} unknown ${counts.unknown} (${s} s)\n`,
      );
    }
  }
  times.sort((a, b) => a - b);
  const decided = counts.won + counts.lost;
  const [low, high] = wilson(counts.won, decided);
  console.log(`${name} (seeds ${start}..${start + deals - 1}, budget ${budgetMs} ms a deal)`);
  console.log(`  won ${counts.won}  lost ${counts.lost}  unknown ${counts.unknown}`);
  console.log(
    `  winnable share of decided deals: ${pct(decided ? counts.won / decided : Number.NaN)} (95% CI ${pct(low)}-${pct(high)}, n = ${decided})`,
  );
  console.log(`  undecided: ${pct(counts.unknown / deals)}`);
  console.log(
    `  time per deal: median ${percentile(times, 0.5).toFixed(1)} ms, p90 ${percentile(times, 0.9).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms`,
  );
}

study('draw 3, 3 passes', { draw: 3, passes: 3, foundationToTableau: true });
study('draw 3, unlimited passes', { draw: 3, passes: null, foundationToTableau: true });
