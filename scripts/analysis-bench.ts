/**
 * How long the analysis of a finished game takes: `npm run analysis-bench -- --games N [--from S]
 * [--moves M] [--clock cpu|wall]`. For each numbered deal S..S+N-1 it makes a finished game the way players do (moves
 * at random, an undo now and then, sometimes a stretch of the solver's own winning line first, then
 * a resignation), analyses it as the route does (ANALYSIS_BUDGET, SOLVER_MS.analysis), and prints
 * the verdicts, how often the last winnable version stayed unknown, and the time per game (median,
 * p90 and p99, each with its 95% interval, and max; the process's CPU time unless `--clock wall`).
 * It ends with one game of the longest length allowed (10,000 actions).
 */
import {
  ANALYSIS_BUDGET,
  type Command,
  deal,
  decide,
  evolve,
  fold,
  type GameEvent,
  type GameState,
  HOUSE_RULES,
  isViolation,
  legalMoves,
  MAX_ACTIONS,
  solve,
} from '../domain/index.js';
import { deckFromSeed, MAX_SEED, mulberry32 } from '../domain/shuffle.js';
import { analyse } from '../domain/solver/index.js';
import { SOLVER_MS } from '../functions/solver.js';
import { parseScriptArgs, wholeNumber } from '../infra/local/args.js';
import { clockNamed, clockOf, deadlineOn } from './clock.js';
import { percentile, quantileInterval, withInterval } from './stats.js';

const USAGE = 'npm run analysis-bench -- [--games 100] [--from 0] [--moves 150] [--clock cpu|wall]';
const { values } = parseScriptArgs(
  {
    options: {
      games: { type: 'string', default: '100' },
      from: { type: 'string', default: '0' },
      moves: { type: 'string', default: '150' },
      clock: { type: 'string', default: 'cpu' },
    },
  },
  USAGE,
);
const games = wholeNumber('games', values.games, 1, 100_000, USAGE);
const from = wholeNumber('from', values.from, 0, MAX_SEED - games + 1, USAGE);
// A game takes at most MAX_ACTIONS actions after its deal.
const length = wholeNumber('moves', values.moves, 1, MAX_ACTIONS, USAGE);
const clockName = clockNamed(values.clock, USAGE);
const clock = clockOf(clockName);

/** A finished game of about `actions` actions on seed's deal. */
function finishedGame(seed: number, actions: number): GameEvent[] {
  const next = mulberry32(seed ^ 0x0a7a1);
  const deck = deckFromSeed(seed);
  const events: GameEvent[] = [deal(deck, seed, HOUSE_RULES)];
  let state: GameState = fold(events);
  // Half the games start along a winning line, as a good player's would.
  const solved = seed % 2 === 0 ? solve(deck, HOUSE_RULES, { nodes: 200_000 }) : undefined;
  const line = solved?.result === 'won' ? solved.line.slice(0, next() % solved.line.length) : [];
  const apply = (command: Command) => {
    const event = decide(state, command);
    if (isViolation(event)) return false;
    events.push(event);
    state = evolve(state, event);
    return true;
  };
  for (const move of line) apply(move);
  while (events.length < actions && state.status === 'playing') {
    const moves = legalMoves(state);
    const roll = next() % 10;
    if (roll === 0 && state.done !== null) apply({ type: 'undo' });
    else if (roll === 1 && state.undone !== null) apply({ type: 'redo' });
    else if (moves.length > 0) apply(moves[next() % moves.length]!);
    else if (state.done !== null) apply({ type: 'undo' });
    else break;
  }
  if (state.status === 'playing') apply({ type: 'resign' });
  return events;
}

function timed(events: GameEvent[]) {
  const t0 = clock();
  const analysis = analyse(events, { ...ANALYSIS_BUDGET, ...deadlineOn(clockName, SOLVER_MS.analysis) });
  return { analysis, ms: clock() - t0 };
}

const times: number[] = [];
const verdicts = { winnable: 0, lost: 0, unknown: 0 };
let openVersion = 0;
for (let i = 0; i < games; i++) {
  const { analysis, ms } = timed(finishedGame(from + i, length));
  times.push(ms);
  verdicts[analysis.verdict]++;
  if (analysis.lastWinnableVersion === 'unknown') openVersion++;
}
times.sort((a, b) => a - b);
const ms = (q: number) => withInterval(percentile(times, q), quantileInterval(times, q), 0, ' ms');
console.log(
  `analysis of ${games} finished games (seeds ${from}..${from + games - 1}, about ${length} actions each)`,
);
console.log(`  deal winnable ${verdicts.winnable}, lost ${verdicts.lost}, unknown ${verdicts.unknown}`);
console.log(`  last winnable version unknown: ${openVersion}`);
console.log(`  time: median ${ms(0.5)}, p90 ${ms(0.9)}, p99 ${ms(0.99)}, max ${times.at(-1)!.toFixed(0)} ms`);
const longest = finishedGame(from, 10_000);
const { analysis, ms: longMs } = timed(longest);
console.log(
  `  a game of ${longest.length - 1} actions: ${analysis.verdict}, last winnable ${analysis.lastWinnableVersion}, ${longMs.toFixed(0)} ms`,
);
