import { afterEach, describe, expect, it } from 'vitest';
import { clockOffset } from '../../functions/clock.js';
import { TIME_SCALE_ENV, timeLimit, timeScale } from '../../functions/timeScale.js';
import { startRuntime } from '../../infra/local/runtime.js';

const given = process.env[TIME_SCALE_ENV];
afterEach(() => {
  if (given === undefined) delete process.env[TIME_SCALE_ENV];
  else process.env[TIME_SCALE_ENV] = given;
});

describe('KLONDIKE_TIME_SCALE', () => {
  it('is 1 when unset or empty, else the positive number given', () => {
    delete process.env[TIME_SCALE_ENV];
    expect(timeScale()).toBe(1);
    expect(timeScale('')).toBe(1);
    expect(timeScale('10')).toBe(10);
    expect(timeScale(' 2.5 ')).toBe(2.5);
    for (const bad of ['0', '-2', 'ten', '1e3', 'Infinity', '3 s'])
      expect(timeScale(bad), bad).toEqual({
        problem: `KLONDIKE_TIME_SCALE must be a positive number (such as 10), not ${JSON.stringify(bad)}`,
      });
  });

  it('scales a limit to whole milliseconds, and leaves it as written when the factor is not a number', () => {
    process.env[TIME_SCALE_ENV] = '10';
    expect(timeLimit(2_500)).toBe(25_000);
    process.env[TIME_SCALE_ENV] = '0.3333';
    expect(timeLimit(1_000)).toBe(333);
    delete process.env[TIME_SCALE_ENV];
    expect(timeLimit(2_500)).toBe(2_500);
    process.env[TIME_SCALE_ENV] = 'ten';
    expect(timeLimit(2_500)).toBe(2_500);
  });

  it('that is not a number stops the local runtime from starting, saying why', async () => {
    process.env[TIME_SCALE_ENV] = 'ten';
    await expect(startRuntime({ port: 0 })).rejects.toThrow(
      'KLONDIKE_TIME_SCALE must be a positive number (such as 10), not "ten"',
    );
  });
});

describe('KLONDIKE_CLOCK_OFFSET_S', () => {
  it('is 0 when unset or empty, else the seconds given, up to 100 years either way', () => {
    expect(clockOffset(undefined)).toBe(0);
    expect(clockOffset('')).toBe(0);
    expect(clockOffset('86400')).toBe(86_400);
    expect(clockOffset('-3600.5')).toBe(-3600.5);
    for (const bad of ['abc', '1e3', 'Infinity', '0x10'])
      expect(clockOffset(bad), bad).toEqual({
        problem: expect.stringMatching(/must be a number of seconds/),
      });
    // A date cannot hold the time it would give: every request reading the clock failed (a 500).
    for (const far of ['99999999999999999999', '-9000000000'])
      expect(clockOffset(far), far).toEqual({ problem: expect.stringMatching(/at most 3162240000 seconds/) });
  });
});
