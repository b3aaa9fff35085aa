/**
 * The daily deal at the terminal: `--daily`, `--name`, `--leaderboard` and the prompt's `:daily`
 * and `lb`, read from the command line and the prompt (pure), rendered (pure), and played against
 * the local runtime, whose deal of the day is a deal with a known winning line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../client/api.js';
import { parseCommand } from '../../client/commands.js';
import { UsageError } from '../../client/options.js';
import { moveCommand, printable, renderDaily, renderLeaderboard } from '../../client/render.js';
import { parsePlayArgs, runPlay } from '../../client/run-play.js';
import { runReplay } from '../../client/run-replay.js';
import type { Daily, Leaderboard, Move } from '../../client/types.js';
import { dayOf } from '../../domain/index.js';
import { keepDailyDeal } from '../../functions/store/daily.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { type Local, startLocal } from '../support/local.js';
import { emptyView, streams } from './streams.js';

describe('the prompt reads', () => {
  it.each([
    ['daily', { kind: 'daily' }],
    [':daily', { kind: 'daily' }],
    ['lb', { kind: 'leaderboard' }],
    ['lb today', { kind: 'leaderboard' }],
    [':leaderboard', { kind: 'leaderboard' }],
    ['leaderboard yesterday', { kind: 'leaderboard', date: 'yesterday' }],
    ['LB 2026-05-14', { kind: 'leaderboard', date: '2026-05-14' }],
  ])('%j', (line, command) => {
    expect(parseCommand(line)).toEqual(command);
  });

  it('refuses a day it cannot read', () => {
    expect(parseCommand('lb tomorrow')).toEqual({
      kind: 'error',
      message: '"tomorrow" is not a day: write it YYYY-MM-DD (such as 2026-05-14), or yesterday.',
    });
    expect(parseCommand('lb 2026-5-14').kind).toBe('error');
    // A day no calendar has is refused here, not sent to the service.
    expect(parseCommand('lb 2026-13-45').kind).toBe('error');
    expect(parseCommand('lb 2026-02-30').kind).toBe('error');
    expect(parseCommand('lb 2028-02-29')).toEqual({ kind: 'leaderboard', date: '2028-02-29' });
  });
});

describe('the command line', () => {
  const parsed = (...argv: string[]) => parsePlayArgs(argv, {});

  it('takes --daily with a sign-in, and a name to show', () => {
    expect(parsed('--daily', '--player', 'alice', '--name', "Zoë O'Brien")).toMatchObject({
      daily: true,
      player: 'alice',
      name: "Zoë O'Brien",
      newGame: {},
    });
    expect(parsed('--daily', '--token', 'a.jwt.here')).toMatchObject({ daily: true, token: 'a.jwt.here' });
  });

  it('takes --leaderboard, with a day and a number of entries', () => {
    expect(parsed('--leaderboard')).toMatchObject({ leaderboard: { limit: 20 } });
    expect(parsed('--leaderboard', '--date', '2026-05-14', '--limit', '50')).toMatchObject({
      leaderboard: { date: '2026-05-14', limit: 50 },
    });
    expect(parsed('--leaderboard', '--date', 'yesterday')).toMatchObject({
      leaderboard: { date: 'yesterday', limit: 20 },
    });
  });

  it.each([
    [['--daily'], '--daily needs --player NAME (a sign-in)'],
    [['--name', 'Zoë'], '--name needs --player NAME (a sign-in)'],
    [
      ['--daily', '--player', 'a', '--seed', '3'],
      "--daily plays today's deal: it takes no deal or rule option",
    ],
    [['--leaderboard', '--date', '2026-02-30'], '--date takes a day written YYYY-MM-DD, or yesterday'],
    [['--daily', '--player', 'a', '--game', 'g'], "--daily plays today's deal"],
    [['--leaderboard', '--seed', '3'], '--leaderboard prints a leaderboard and plays nothing'],
    [['--leaderboard', '--daily', '--player', 'a'], '--leaderboard prints a leaderboard'],
    [['--leaderboard', '--date', '14/05/2026'], '--date takes a day written YYYY-MM-DD, or yesterday'],
    [['--leaderboard', '--limit', '0'], '--limit takes a whole number from 1 to 1000'],
    [['--date', '2026-05-14'], '--date and --limit go with --leaderboard'],
    [['--limit', '5'], '--date and --limit go with --leaderboard'],
  ])('refuses %j', (argv, message) => {
    expect(() => parsed(...argv)).toThrow(UsageError);
    expect(() => parsed(...argv)).toThrow(message);
  });
});

describe('the rendering', () => {
  const daily = (me: Daily['me']): Daily => ({
    date: '2026-05-14',
    rules: { draw: 3, passes: 3, foundationToTableau: true },
    players: 12,
    won: 5,
    me,
  });
  const standing = { gameId: 'g1', actions: 109, moves: 96, elapsedMs: 187_000 };

  it("says today's standing and the player's own", () => {
    expect(renderDaily(daily(null), false)).toBe(
      'Daily deal of 2026-05-14 (draw 3, 3 passes; the same deal for everyone until 00:00 UTC): 12 players so far, 5 won it.\n' +
        '  sign in with --player NAME to play it',
    );
    expect(renderDaily(daily(null), true)).toContain('  you have not started it: one attempt a day');
    expect(renderDaily({ ...daily(null), players: 0, won: 0 }, true)).toContain(
      'the same deal for everyone until 00:00 UTC): no one has played it yet.\n',
    );
    expect(renderDaily(daily({ ...standing, status: 'playing', rank: null }), true)).toContain(
      '  you: in play, 96 moves (109 actions, 3:07) so far',
    );
    expect(renderDaily(daily({ ...standing, status: 'won', rank: 2 }), true)).toContain(
      '  you: won in 96 moves (109 actions, 3:07), rank 2 of 5',
    );
    expect(renderDaily(daily({ ...standing, status: 'resigned', rank: null }), true)).toContain(
      '  you: resigned',
    );
  });

  const board = (gameId: string | null): Leaderboard => ({
    date: '2026-05-14',
    players: 3,
    won: 3,
    next: null,
    entries: [
      {
        rank: 1,
        player: "Zoë O'Brien",
        actions: 96,
        moves: 96,
        elapsedMs: 65_000,
        finishedAt: '2026-05-14T08:01:02.345Z',
        gameId,
      },
      {
        rank: 1,
        player: 'Ωμέγα',
        actions: 96,
        moves: 96,
        elapsedMs: 65_000,
        finishedAt: '2026-05-14T08:01:02.345Z',
        gameId,
      },
      {
        rank: 3,
        player: 'A name of twenty-four ch',
        actions: 1200,
        moves: 99,
        elapsedMs: 3_723_000,
        finishedAt: '2026-05-14T23:59:59.000Z',
        gameId,
      },
    ],
  });

  it('lays a leaderboard out in columns, the games shown once the day is over', () => {
    expect(renderLeaderboard(board(null))).toMatchInlineSnapshot(`
      "Leaderboard of 2026-05-14: 3 players, 3 won (ranked by fewest actions, then time, then the earliest finish)
        rank  player                    actions  moves     time  finished  game
           1  Zoë O'Brien                    96     96     1:05  08:01:02Z (shown after the day)
           1  Ωμέγα                          96     96     1:05  08:01:02Z (shown after the day)
           3  A name of twenty-four ch     1200     99  1:02:03  23:59:59Z (shown after the day)
        the games and their replays show once the day is over (00:00 UTC)"
    `);
    expect(renderLeaderboard(board('6f1c0b8e'))).toContain('08:01:02Z 6f1c0b8e');
    expect(renderLeaderboard(board('6f1c0b8e'))).toContain('replay a game: npm run replay -- <game>');
    expect(renderLeaderboard({ ...board(null), entries: [] })).toContain('no one has won this deal yet');
  });

  it('offers the next entries with the command that prints them, on the same service', async () => {
    const io = streams();
    const api = {
      url: 'http://cards.example:8080',
      leaderboard: async () => ({ ...board(null), entries: board(null).entries.slice(0, 1), next: 'c1' }),
    } as any;
    expect(await runPlay({ ...io, api, leaderboard: { date: '2026-05-14', limit: 1 }, color: false })).toBe(
      0,
    );
    expect(io.text()).toContain(
      'more: npm run play -- --leaderboard --date 2026-05-14 --limit 21 --url http://cards.example:8080',
    );
    // Signed in with --player, the next entries keep the player's rows marked.
    const signed = streams();
    const signedApi = {
      ...api,
      player: 'tess',
      signIn: async () => {},
      profile: async () => ({ displayName: 'Ωμέγα' }),
    };
    expect(
      await runPlay({
        ...signed,
        api: signedApi,
        player: 'tess',
        leaderboard: { date: '2026-05-14', limit: 1 },
        color: false,
      }),
    ).toBe(0);
    expect(signed.text()).toContain(
      'more: npm run play -- --leaderboard --date 2026-05-14 --limit 21 --player tess --url http://cards.example:8080',
    );
  });

  it('with --player, marks the rows under the name the leaderboards show for the player', async () => {
    const io = streams();
    let signedIn = '';
    const api = {
      url: 'http://127.0.0.1:3000',
      player: 'tess',
      signIn: async (player: string) => {
        signedIn = player;
      },
      profile: async () => ({ name: 'Ωμέγα', displayName: 'Ωμέγα' }),
      leaderboard: async () => board(null),
    } as any;
    expect(
      await runPlay({ ...io, api, player: 'tess', leaderboard: { date: '2026-05-14', limit: 20 } }),
    ).toBe(0);
    expect(signedIn).toBe('tess');
    expect(io.text()).toMatchInlineSnapshot(`
      "Leaderboard of 2026-05-14: 3 players, 3 won (ranked by fewest actions, then time, then the earliest finish)
        rank  player                    actions  moves     time  finished  game
           1  Zoë O'Brien                    96     96     1:05  08:01:02Z (shown after the day)
      ›    1  Ωμέγα                          96     96     1:05  08:01:02Z (shown after the day)
           3  A name of twenty-four ch     1200     99  1:02:03  23:59:59Z (shown after the day)
        the games and their replays show once the day is over (00:00 UTC)
        › your name on the leaderboards, Ωμέγα
      "
    `);
    expect(renderLeaderboard(board(null), 'Nobody')).toContain(
      '  your name on the leaderboards, Nobody, is not among these',
    );
  });

  it('keeps its columns whatever the script of a name: a wide letter takes two, a mark none', () => {
    const rows = (player: string) =>
      renderLeaderboard({ ...board(null), entries: [{ ...board(null).entries[0]!, player }] }).split(
        '\n',
      )[2]!;
    // The row after the name is the same for every name: what is left is the name's cell.
    const after = rows('x').slice(8 + 24).length;
    const cell = (player: string) => rows(player).slice(8, -after);
    expect(cell('王小明')).toBe(`王小明${' '.repeat(18)}`);
    expect(cell('Zoe\u0301')).toBe(`Zoe\u0301${' '.repeat(21)}`);
    // Too wide for 24 columns: cut at 23, with an ellipsis in the 24th.
    expect(cell('王'.repeat(13))).toBe(`${'王'.repeat(11)}… `);
    expect(cell('A name of twenty-four ch')).toBe('A name of twenty-four ch');
  });

  it('shows the milliseconds of two ranks that the clock alone would show tied', () => {
    const [first, , third] = board(null).entries;
    const entries = [
      { ...first!, elapsedMs: 7_412 },
      { ...first!, rank: 2, elapsedMs: 7_415 },
      { ...third!, rank: 3, actions: 97, elapsedMs: 7_900 },
      { ...third!, rank: 4 },
    ];
    expect(renderLeaderboard({ ...board(null), entries })).toMatchInlineSnapshot(`
      "Leaderboard of 2026-05-14: 3 players, 3 won (ranked by fewest actions, then time, then the earliest finish)
        rank  player                    actions  moves      time  finished  game
           1  Zoë O'Brien                    96     96  0:07.412  08:01:02Z (shown after the day)
           2  Zoë O'Brien                    96     96  0:07.415  08:01:02Z (shown after the day)
           3  A name of twenty-four ch       97     99  0:07.900  23:59:59Z (shown after the day)
           4  A name of twenty-four ch     1200     99   1:02:03  23:59:59Z (shown after the day)
        the games and their replays show once the day is over (00:00 UTC)"
    `);
  });

  it('prints no control character a name might hold', () => {
    expect(printable('\x1b[2Jgone\x07')).toBe('?[2Jgone?');
    const shown = renderLeaderboard({
      ...board(null),
      entries: [{ ...board(null).entries[0]!, player: '\x1b]0;pwned\x07' }],
    });
    for (const line of shown.split('\n')) expect(line).not.toMatch(/\p{Cc}/u);
    expect(shown).toContain('?]0;pwned?');
  });
});

describe('a finished daily game opened again', () => {
  /** A daily game of `day`, ended by its event at `endedAt`, and a service whose day is `today`. */
  const service = (day: string, status: 'won' | 'resigned', endedAt: string, today: string) => {
    const game = {
      ...emptyView(),
      version: 40,
      status,
      daily: day,
      moves: 30,
      ...(today === day ? {} : { deck: [] }),
    };
    const ending = {
      version: 40,
      type: status === 'won' ? 'moved' : 'resigned',
      schema: 1,
      at: endedAt,
      data: {},
    };
    const stats = {
      started: 1,
      won: status === 'won' ? 1 : 0,
      resigned: status === 'won' ? 0 : 1,
      inPlay: 0,
      winRate: status === 'won' ? 1 : 0,
      currentStreak: 0,
      bestStreak: 0,
      bestVegas: -52,
      fewestMovesToWin: null,
      asOf: endedAt,
      daily: { played: 1, won: 0, currentStreak: 0, bestStreak: 0 },
    };
    const me = {
      gameId: 'g1',
      status,
      actions: 40,
      moves: 30,
      elapsedMs: 60_000,
      rank: status === 'won' ? 1 : null,
    };
    return {
      url: 'http://127.0.0.1:3000',
      player: 'tess',
      token: 'a.jwt.here',
      signIn: async () => {},
      daily: async () => ({
        date: today,
        rules: game.rules,
        players: 1,
        won: 0,
        me: today === day ? me : null,
      }),
      playDaily: async () => game,
      getGame: async () => game,
      analysis: async () => ({ verdict: 'lost', line: null, lastWinnableVersion: null }),
      eventsPage: async () => ({ events: [ending], next: null }),
      myStats: async () => stats,
    } as any;
  };
  const open = async (api: unknown, config: Record<string, unknown>) => {
    const io = streams([]);
    expect(await runPlay({ ...io, api: api as any, player: 'tess', color: false, ...config })).toBe(0);
    return io.text();
  };

  it('by --daily the same day: the standing is said once', async () => {
    const out = await open(service('2026-05-14', 'resigned', '2026-05-14T10:00:00.000Z', '2026-05-14'), {
      daily: true,
    });
    expect(out.match(/Daily deal of 2026-05-14/g)).toHaveLength(1);
    expect(out.match(/you: resigned/g)).toHaveLength(1);
  });

  it('while its day lasts: its player can replay it, signed in as they played it', async () => {
    const today = service('2026-05-14', 'resigned', '2026-05-14T10:00:00.000Z', '2026-05-14');
    const out = await open(today, { daily: true });
    expect(out).toContain(
      'Its replay is public once the day is over (00:00 UTC); yours to replay now: npm run replay -- g1 --player tess',
    );
    // The replay signs in as --player; without it, it says how its player replays it.
    let signedIn = false;
    const api = {
      url: 'http://127.0.0.1:3000',
      signIn: async () => {
        signedIn = true;
      },
      getGame: async () => {
        if (!signedIn)
          throw new ApiError(401, { type: 'x', title: 'x', status: 401, detail: 'A token, please.' });
        return { version: 0, status: 'resigned' };
      },
      replayPage: async () => ({
        frames: [
          {
            version: 0,
            event: { type: 'dealt', data: {} },
            view: { ...(await today.getGame()), version: 0 },
          },
        ],
      }),
    } as any;
    const anonymous = streams();
    expect(await runReplay({ ...anonymous, api, source: 'g1', at: 0 })).toBe(2);
    expect(anonymous.text()).toBe(
      'klondike replay: game g1 is still in play, or a daily game whose day is not over (00:00 UTC): until then only its player replays it, signed in as they played it (--player NAME) or with its token (--token T) (--help for usage)\n',
    );
    const player = streams();
    expect(await runReplay({ ...player, api, source: 'g1', at: 0, player: 'tess', color: false })).toBe(0);
    expect(player.text()).toContain('Klondike  game g1  version 0');
  });

  it('after its day: says what is true of that game on the leaderboard', async () => {
    const resigned = await open(service('2026-05-14', 'resigned', '2026-05-14T10:00:00.000Z', '2026-05-15'), {
      game: 'g1',
    });
    expect(resigned).toContain(
      "Your game on the daily deal of 2026-05-14 was not won, so it has no place on that day's leaderboard: only won games are ranked.",
    );
    expect(resigned).not.toContain('ended after its day');
    const won = await open(service('2026-05-14', 'won', '2026-05-14T23:59:59.000Z', '2026-05-16'), {
      game: 'g1',
    });
    expect(won).toContain(
      "Your game on the daily deal of 2026-05-14 was won on its day: its rank is on that day's leaderboard (npm run play -- --leaderboard --date 2026-05-14).",
    );
    const late = await open(service('2026-05-14', 'won', '2026-05-15T00:00:01.000Z', '2026-05-15'), {
      game: 'g1',
    });
    expect(late).toContain(
      'Your game on the daily deal of 2026-05-14 was won after its day was over (00:00 UTC), so it is not ranked: only a game won on its day is.',
    );
  });
});

describe("today's deal at the terminal", () => {
  const [line] = fixtures.lines;
  const today = dayOf(Date.now());
  let local: Local;
  let id = '';

  beforeAll(async () => {
    local = await startLocal();
    await keepDailyDeal(today, line!.deck, new Date().toISOString());
  }, 60_000);
  afterAll(() => local?.stop());

  const play = (lines: string[], extra: Record<string, unknown> = {}) => {
    const io = streams(lines);
    return runPlay({ ...io, url: local.url, color: false, ...extra }).then((status) => ({
      status,
      out: io.text(),
    }));
  };

  it("--daily deals today's deal once, under the chosen name; no hint while the day lasts; :daily and lb show the day", {
    timeout: 30_000,
  }, async () => {
    const { status, out } = await play(['d', 'hint', ':daily', 'lb', 'q'], {
      daily: true,
      player: 'tess',
      name: "Tess O'Neil",
    });
    expect(status).toBe(0);
    expect(out).toContain("The leaderboards show you as Tess O'Neil.");
    expect(out).toContain(`Daily deal of ${today} (draw 3, 3 passes;`);
    expect(out).toContain('  you have not started it: one attempt a day');
    id = /Today's deal: game (\S+) /.exec(out)![1]!;
    expect(out).toMatch(/> hint\nrefused: .*no hint or analysis until the day is over/);
    // The day's counts are read models, a moment behind; the player's own game is there at once.
    expect(out).toMatch(
      /> :daily\nDaily deal of \S+ .*\n {2}you: in play, \d+ moves? \(\d+ actions?, \d+:\d\d\) so far/,
    );
    expect(out).toMatch(/> lb\nLeaderboard of .*: 1 player, 0 won .*\n {2}no one has won this deal yet/);
    // By the game's id: --daily after midnight UTC would deal the next day's game.
    expect(out).toContain(`Left at version 1. Resume with: npm run play -- --game ${id} --player tess`);
  });

  it('--daily again resumes the same game, and once it is won shows the rank', {
    timeout: 60_000,
  }, async () => {
    const commands = (line!.moves as Move[]).slice(1).map(moveCommand);
    const { status, out } = await play(commands, { daily: true, player: 'tess' });
    expect(status).toBe(0);
    expect(out).toContain(`Your game on today's deal, ${id}, at version 1.`);
    expect(out).toMatch(/Won in \d+ moves!/);
    expect(out).toContain(
      `Its replay is public once the day is over (00:00 UTC); yours to replay now: npm run replay -- ${id} --player tess --url ${local.url}`,
    );
    expect(out).toMatch(
      new RegExp(`you: won in \\d+ moves \\(${line!.moves.length} actions, \\d+:\\d\\d\\), rank 1 of 1`),
    );
    expect(out).toMatch(/daily deals: 1 played, 1 won; days in a row with a daily win: 1 now, best 1/);
  });

  it("--leaderboard prints the day's board without a sign-in, and says why a day has none", {
    timeout: 30_000,
  }, async () => {
    await local.settled();
    const shown = await play([], { leaderboard: { limit: 20 } });
    expect(shown.status).toBe(0);
    const [title, , first] = shown.out.split('\n');
    expect(title).toMatch(new RegExp(`^Leaderboard of ${today}: 1 player, 1 won `));
    expect(first).toMatch(
      new RegExp(
        `^ +1  Tess O'Neil +${line!.moves.length} +\\d+ +\\d+:\\d\\d  \\d\\d:\\d\\d:\\d\\dZ \\(shown after the day\\)$`,
      ),
    );
    const none = streams();
    const status = await runPlay({
      ...none,
      url: local.url,
      color: false,
      leaderboard: { date: '2001-01-01', limit: 5 },
    });
    expect(status).toBe(1);
    expect(none.text()).toMatch(/^error: There is no daily deal of 2001-01-01/);
  });

  it("--daily with a sign-in token (--token) is signed in: :daily and :stats say so; the resume line gives the game's own token, which outlasts the sign-in", {
    timeout: 30_000,
  }, async () => {
    const token = await local.issuer!.tokenFor('ursa');
    const { status, out } = await play([':daily', ':stats', 'q'], { daily: true, token });
    expect(status).toBe(0);
    // Signed in (the read models may still be a moment behind the deal: no counts asserted).
    expect(out).toMatch(/> :daily\nDaily deal of \S+ .*\n {2}you(?: have not started it|: in play)/);
    expect(out).not.toContain('sign in with --player');
    expect(out).toMatch(/> :stats\nursa: \d+ games? dealt/);
    const game = /Today's deal: game (\S+) /.exec(out)?.[1];
    expect(game).toBeDefined();
    expect(out).toMatch(new RegExp(`Resume with: npm run play -- --game ${game} --token=[\\w-]{22,}\\b`));
    expect(out).not.toContain(`--token=${token}`);
  });
});
