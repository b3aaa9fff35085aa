/**
 * How `POST /games {"winnable": true}` fares under the handler's own budget (`npm run bench:winnable`):
 * deals drawn afresh from the cryptographic source until the solver proves one won, SOLVER_MS.winnableDeal
 * in all and WINNABLE_NODES_PER_DEAL a deal. Prints, per rule set, the share answered 201 (the rest
 * are 503 busy), the time taken (median with its 95% interval, p90, max) and the deals tried. The
 * deadline and the times are the process's CPU time unless `--clock wall`: on a shared machine the
 * handler's own CPU is what its budget stands for (a Lambda call has its vCPU to itself). `--seeds S`
 * draws the numbered deals S, S+1, ... instead, so that two runs do the same work.
 */
import { deckFromSeed, type Rules, winnableDeal, withDefaults } from '../domain/index.js';
import { MAX_SEED } from '../domain/shuffle.js';
import { randomDeck } from '../functions/deals.js';
import { SOLVER_MS, WINNABLE_NODES_PER_DEAL } from '../functions/solver.js';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import { clockNamed, clockOf, deadlineOn } from './clock.js';
import { percentile, quantileInterval, withInterval } from './stats.js';

const USAGE = 'npm run bench:winnable -- [--tries 40] [--clock cpu|wall] [--seeds S]';
const { values } = parseScriptArgs(
  {
    options: {
      tries: { type: 'string' },
      clock: { type: 'string', default: 'cpu' },
      // The numbered deals from this seed on instead of fresh random ones: the same work for every run.
      seeds: { type: 'string' },
    },
  },
  USAGE,
);
const TRIES = wholeNumber('tries', values.tries ?? '40', 1, 100_000, USAGE);
const firstSeed =
  values.seeds === undefined ? undefined : wholeNumber('seeds', values.seeds, 0, MAX_SEED, USAGE);
const clockName = clockNamed(values.clock, USAGE);
const clock = clockOf(clockName);
const RULE_SETS: Partial<Rules>[] = [{}, { passes: 1 }, { draw: 1 }, { passes: null }];

for (const options of RULE_SETS) {
  const rules = withDefaults(options);
  let seed = firstSeed ?? 0;
  const nextDeck =
    firstSeed === undefined
      ? randomDeck
      : () => {
          // The numbered deals stop at the last seed: they never start again from seed 0.
          if (seed > MAX_SEED) {
            console.error(`the numbered deals ran out at seed ${MAX_SEED}: give a lower --seeds`);
            process.exit(1);
          }
          return deckFromSeed(seed++);
        };
  const times: number[] = [];
  const attempts: number[] = [];
  let found = 0;
  for (let i = 0; i < TRIES; i++) {
    const started = clock();
    const deal = winnableDeal(nextDeck, rules, {
      perDeal: WINNABLE_NODES_PER_DEAL,
      ...deadlineOn(clockName, SOLVER_MS.winnableDeal),
    });
    times.push(clock() - started);
    if (deal) {
      found++;
      attempts.push(deal.attempts);
    }
  }
  times.sort((a, b) => a - b);
  attempts.sort((a, b) => a - b);
  console.log(
    `draw ${rules.draw}, passes ${rules.passes ?? 'unlimited'}: ${found}/${TRIES} proved (${((100 * found) / TRIES).toFixed(0)}%), ` +
      `time median ${withInterval(percentile(times, 0.5), quantileInterval(times, 0.5), 0, ' ms')}, p90 ${percentile(times, 0.9).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms; ` +
      `deals tried median ${attempts.length ? percentile(attempts, 0.5) : '-'}, max ${attempts.at(-1) ?? '-'}`,
  );
}
