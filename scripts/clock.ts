/**
 * The clocks the solver's benchmarks read, in milliseconds: the process's CPU time (user and system,
 * all its threads), so that other work on a shared machine does not count in a deal's or a hint's
 * time, or the wall clock.
 */
import { refuse } from '../infra/local/args.js';

export type ClockName = 'cpu' | 'wall';

const isClockName = (name: string | undefined): name is ClockName => name === 'cpu' || name === 'wall';

/** The `--clock` option's clock; anything else refused in one line, with the usage. */
export const clockNamed = (text: string, usage: string): ClockName =>
  isClockName(text) ? text : refuse(`--clock is cpu or wall, not ${JSON.stringify(text)}`, usage);

export function clockOf(name: ClockName): () => number {
  if (name === 'wall') return () => performance.now();
  return () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
}

/** A solver budget's clock fields: `ms` from now on the named clock. */
export function deadlineOn(name: ClockName, ms: number): { now: () => number; deadline: number } {
  const now = clockOf(name);
  return { now, deadline: now() + ms };
}
