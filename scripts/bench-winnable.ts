/**
 * How `POST /games {"winnable": true}` fares under the handler's own budget (`npm run bench:winnable`):
 * deals drawn afresh from the cryptographic source until the solver proves one won, SOLVER_MS.winnableDeal
 * in all and WINNABLE_NODES_PER_DEAL a deal. Prints, per rule set, the share answered 201 (the rest
 * are 503 busy) and the time taken (median, p90, max) and deals tried.
 */
import { parseArgs } from 'node:util';
import { type Rules, winnableDeal, withDefaults } from '../domain/index.js';
import { randomDeck } from '../functions/deals.js';
import { deadline, SOLVER_MS, WINNABLE_NODES_PER_DEAL } from '../functions/solver.js';

const { values } = parseArgs({ options: { tries: { type: 'string' } } });
const TRIES = Number(values.tries ?? 40);
const RULE_SETS: Partial<Rules>[] = [{}, { passes: 1 }, { draw: 1 }, { passes: null }];

const at = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
for (const options of RULE_SETS) {
  const rules = withDefaults(options);
  const times: number[] = [];
  const attempts: number[] = [];
  let found = 0;
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    const deal = winnableDeal(randomDeck, rules, {
      perDeal: WINNABLE_NODES_PER_DEAL,
      ...deadline(SOLVER_MS.winnableDeal),
    });
    times.push(performance.now() - started);
    if (deal) {
      found++;
      attempts.push(deal.attempts);
    }
  }
  times.sort((a, b) => a - b);
  attempts.sort((a, b) => a - b);
  console.log(
    `draw ${rules.draw}, passes ${rules.passes ?? 'unlimited'}: ${found}/${TRIES} proved (${((100 * found) / TRIES).toFixed(0)}%), ` +
      `time median ${at(times, 0.5).toFixed(0)} ms, p90 ${at(times, 0.9).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms; ` +
      `deals tried median ${attempts.length ? at(attempts, 0.5) : '-'}, max ${attempts.at(-1) ?? '-'}`,
  );
}
