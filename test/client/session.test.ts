import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, createApi } from '../../client/api.js';
import { moveCommand } from '../../client/render.js';
import { runPlay } from '../../client/run-play.js';
import { runReplay } from '../../client/run-replay.js';
import type { NewGame } from '../../client/types.js';
import winning from '../fixtures/winning-lines.json' with { type: 'json' };
import { startLocal } from '../support/local.js';
import { emptyView, streams } from './streams.js';

let local: Awaited<ReturnType<typeof startLocal>>;
let dir: string;

beforeAll(async () => {
  local = await startLocal();
  dir = await mkdtemp(join(tmpdir(), 'klondike-client-'));
});
afterAll(async () => {
  await local?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a signed-in player at the terminal', () => {
  it('--player signs in, plays a game of theirs, :stats shows the record, and resuming needs no token', async () => {
    const io = streams(['d', 'resign', 'y']);
    const status = await runPlay({
      ...io,
      url: local.url,
      newGame: { seed: 7 },
      player: 'terminal-tess',
      color: false,
    });
    const out = io.text();
    expect(status).toBe(0);
    expect(out).toContain('Signed in as terminal-tess');
    const id = /New game (\S+)/.exec(out)![1]!;
    expect(out).toMatch(/terminal-tess: 1 game dealt, 0 won, 1 resigned, 0 in play \(0% won\)/);
    // :stats in a second game, once its deal has reached the read models.
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const second = runPlay({
      input,
      output,
      url: local.url,
      newGame: { seed: 8 },
      player: 'terminal-tess',
      color: false,
    });
    input.write('d\n');
    while (!text.includes('version 1')) await new Promise((resolve) => setTimeout(resolve, 10));
    await local.settled();
    input.end(':stats\nq\n');
    expect(await second).toBe(0);
    expect(text).toMatch(/terminal-tess: 2 games dealt, 0 won, 1 resigned, 1 in play/);
    const resumed = streams(['q']);
    expect(
      await runPlay({ ...resumed, url: local.url, game: id, player: 'terminal-tess', color: false }),
    ).toBe(0);
    expect(resumed.text()).toContain(`Resumed game ${id}`);
    const anonymous = streams([':stats', 'q']);
    await runPlay({ ...anonymous, url: local.url, newGame: { seed: 9 }, color: false });
    expect(anonymous.text()).toContain('Sign in to keep a record');
  });
});

describe('a game played and replayed through the terminal client', () => {
  let id = '';
  let token = '';

  it('plays seed 42: moves, a refused move with its reason, undo, redo, help', async () => {
    const io = streams(['7 1', '1 3', 'u', 'y', '2f', '?', 'zz', 'd', 'q']);
    const status = await runPlay({ ...io, url: local.url, newGame: { seed: 42 }, color: false });
    const out = io.text();
    expect(status).toBe(0);
    id = /New game (\S+)/.exec(out)![1]!;
    token = /token (\S+)/.exec(out)![1]!;
    expect(out).toContain(`--game ${id} --token=${token}`);
    // The deal, drawn.
    expect(out).toContain('version 0  playing');
    expect(out).toContain('  4♦   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒');
    // 7 1 puts 3♠ on 4♦.
    expect(out).toContain('> 7 1\nok: t7 → t1: 3♠');
    expect(out).toContain('version 1  playing');
    expect(out).toMatch(/ {2}4♦ {3}▒▒▒[^\n]*\n {2}3♠ {4}A♣/);
    // The server's reason for refusing 1 3.
    expect(out).toContain(
      '> 1 3\nrefused: 3♠ does not go on 10♣: it must be one rank lower and of the other colour.',
    );
    expect(out).toContain('> u\nok: undone');
    expect(out).toContain('version 2  playing');
    expect(out).toContain('> y\nok: redone');
    expect(out).toContain('> 2f\nok: t2 → foundation: A♣');
    expect(out).toMatch(/> \?\n {2}d {8}draw\n/);
    expect(out).toContain('> zz\n"zz" is not a command: type h for help.');
    expect(out).toContain('> d\nok: draw');
    expect(out).toContain('version 5  playing');
    expect(out).toContain(`Left at version 5. Resume with: npm run play -- --game ${id} --token=${token}`);
  });

  it('replays the game in play, with its token, every frame', async () => {
    const io = streams();
    expect(await runReplay({ ...io, url: local.url, token, source: id, all: true, color: false })).toBe(0);
    const frames = io.text().match(/^── .*$/gm);
    expect(frames).toEqual([
      '── 0/5 · dealt ──',
      '── 1/5 · t7 → t1: 3♠ ──',
      '── 2/5 · undo (t7 → t1) ──',
      '── 3/5 · redo (t7 → t1) ──',
      '── 4/5 · t2 → fC: A♣ ──',
      '── 5/5 · draw (waste top: 8♣) ──',
    ]);
    // The frames can be undone in the game, not in the replay: no undo or redo key is offered.
    expect(io.text()).not.toMatch(/u undo|y redo/);
  });

  it('refuses to replay a game in play without its token', async () => {
    const io = streams();
    expect(await runReplay({ ...io, url: local.url, source: id, all: true })).toBe(2);
    expect(io.text()).toBe(
      `klondike replay: game ${id} is still in play, or a daily game whose day is not over (00:00 UTC): until then only its player replays it, signed in as they played it (--player NAME) or with its token (--token T) (--help for usage)\n`,
    );
  });

  it('resumes the game and resigns it, once asked and answered yes', async () => {
    const io = streams(['resign', 'n', 'resign', 'y']);
    expect(await runPlay({ ...io, url: local.url, game: id, token, color: false })).toBe(0);
    expect(io.text()).toContain(`Resumed game ${id} at version 5.`);
    expect(io.text()).toContain(
      '> resign\nResign? The game ends here, and its deal is shown. (y/n) n\nNot resigned: play on.\n> resign\n',
    );
    expect(io.text()).toContain('version 6  resigned');
    expect(io.text()).toContain('Resigned at version 6. The deal was seed 42.');
    // Then what its analysis says of the deal.
    expect(io.text()).toMatch(
      /The deal was seed 42\.\n(This deal could be won[ ,.]|No line could win this deal|Whether this deal could be won)/,
    );
    // Opened again, over: its board and how it ended, and no help for commands it cannot take.
    const again = streams([]);
    expect(await runPlay({ ...again, url: local.url, game: id, token, color: false })).toBe(0);
    expect(again.text()).toContain('version 6  resigned');
    expect(again.text()).not.toContain('Type h for help');
  });

  it('replays an exported history through POST /replays, and steps through the public replay', async () => {
    const exported = await (await fetch(`${local.url}/games/${id}/events`)).text();
    const file = join(dir, 'game.json');
    await writeFile(file, exported);
    const fromFile = streams();
    expect(await runReplay({ ...fromFile, url: local.url, source: file, all: true, color: false })).toBe(0);
    const fileFrames = fromFile.text().match(/^── .*$/gm);
    expect(fileFrames?.[0]).toBe('── 0/6 · dealt (seed 42) ──');
    expect(fileFrames?.[6]).toBe('── 6/6 · resigned ──');
    // Each board is titled with the file it comes from (POST /replays names no game).
    expect(fromFile.text()).toContain(`Klondike  game ${file}  version 6`);

    // By id: the game is over, so no token. The boards match the file's, frame for frame.
    const byId = streams();
    expect(await runReplay({ ...byId, url: local.url, source: id, all: true, color: false })).toBe(0);
    const boards = (text: string) =>
      text
        .split(/^── .*$/m)
        .slice(1)
        .map((board) => board.replace(/game \S+/, ''));
    expect(boards(fromFile.text())).toEqual(boards(byId.text()));
    // The game is over, so every frame shows the whole deal: no card back, the face-down cards
    // marked, the stock in drawing order (seed 42 after one draw: 3♥ is next).
    expect(byId.text()).not.toContain('▒');
    const last = byId.text().split(/^── 6\/6 .*$/m)[1]!;
    expect(last).toContain('[ ]: a face-down card, shown because the game is over');
    expect(last).toMatch(/ stock, next card drawn first:\n\[ 3♥\] \[ J♠\] \[ 7♦\]/);
    expect(last).toMatch(/\n {2}4♦ {4}J♣ {2}\[ K♥\] \[ Q♣\] \[ 4♣\] \[ 7♠\] \[ 7♥\]\n/);

    const stepping = streams(['n', '', 'p', 'j -1', 'j abc', 'j 6', 'n', 'q']);
    expect(await runReplay({ ...stepping, url: local.url, source: id, color: false })).toBe(0);
    expect(stepping.text().match(/^── (\d+)\/6/gm)).toEqual([
      '── 0/6',
      '── 1/6',
      '── 2/6',
      '── 1/6',
      '── 6/6',
    ]);
    expect(stepping.text()).toContain('That was the last frame');
    // A jump to no version says what it takes, once for each.
    expect(stepping.text().match(/j takes a version: a whole number from 0 to 6 \(j 12\)\./g)).toHaveLength(
      2,
    );

    const one = streams();
    expect(await runReplay({ ...one, url: local.url, source: id, at: 4, color: false })).toBe(0);
    expect(one.text()).toMatch(
      /^── 4\/6 · t2 → fC: A♣ ──\nKlondike {2}game \S+ {2}version 4 {2}in play at this step \(the game was resigned later\)\n/,
    );

    // A file whose event 4 was edited to one no rule allows: that event is named, and the frames
    // before it still show.
    const log = JSON.parse(exported) as { events: { type: string; data: object }[] };
    log.events[4] = { ...log.events[4]!, type: 'moved', data: { from: 't1', to: 'fS', count: 1 } };
    const edited = join(dir, 'edited.json');
    await writeFile(edited, JSON.stringify(log));
    const bad = streams(['j 3', 'n', 'q']);
    expect(await runReplay({ ...bad, url: local.url, source: edited, color: false })).toBe(0);
    expect(bad.text()).toMatch(/── 3\/6 /);
    expect(bad.text()).toContain(
      `${edited}: event 4 (t1 → fS) cannot be played there: 3♠ does not go on fS, which needs rank A.`,
    );
    expect(bad.text()).toContain('No frame from version 4 on can be shown.');
    // An event of no kind a game has is named before anything is shown (it replayed as a step that did nothing).
    log.events[4] = { ...log.events[4]!, type: 'bogus' };
    await writeFile(edited, JSON.stringify(log));
    const unknown = streams();
    expect(await runReplay({ ...unknown, url: local.url, source: edited, all: true })).toBe(2);
    expect(unknown.text()).toContain(`${edited}: event 4 is of no kind a game has ("bogus")`);
  });

  it('says why an exported daily game hides its deal: the day is not over, whether or not the game is', async () => {
    const file = join(dir, 'daily.json');
    const dealt = {
      version: 0,
      type: 'dealt',
      at: '2026-12-05T10:00:00.000Z',
      data: { rules: {}, daily: '2026-12-05' },
    };
    const resigned = { version: 1, type: 'resigned', at: '2026-12-05T10:01:00.000Z', data: {} };
    await writeFile(file, JSON.stringify({ events: [dealt, resigned], next: null }));
    const io = streams();
    expect(await runReplay({ ...io, url: local.url, source: file, all: true })).toBe(2);
    expect(io.text()).toContain(
      `${file} hides the deal: it is the daily deal of 2026-12-05, kept secret until that day is over (00:00 UTC)`,
    );
    // A file that holds what the API answered instead of the events: its refusal is said.
    const refusal = {
      type: '/problems/unauthenticated',
      title: 'Unauthenticated',
      status: 401,
      detail: 'A bearer token is required.',
    };
    await writeFile(file, JSON.stringify(refusal));
    const refused = streams();
    expect(await runReplay({ ...refused, url: local.url, source: file, all: true })).toBe(2);
    expect(refused.text()).toContain(
      `${file} holds the API's refusal, not a game's events (401: A bearer token is required.)`,
    );
  });
});

describe('a known win, typed in as commands', () => {
  it('plays to the end and says so', async () => {
    const line = winning.lines[1]!;
    const io = streams([...line.moves.map((move) => moveCommand(move as any)), 'q']);
    const status = await runPlay({ ...io, url: local.url, newGame: { deck: line.deck }, color: false });
    expect(status).toBe(0);
    expect(io.text()).not.toContain('refused');
    expect(io.text()).toContain(`version ${line.moves.length}  WON`);
    expect(io.text()).toMatch(/Won in \d+ moves! Score: vegas \d+, standard \d+\./);
    expect(io.text()).not.toContain('> q');
  });
});

describe('the hint, autoplay and autocomplete at the prompt', () => {
  it('hints at the deal, refuses autocomplete there with the reason, then finishes a known win', async () => {
    const line = winning.lines[2]!;
    const moves = line.moves as any[];
    // The first point of the line from which the finish can be proved from what is seen: no card
    // face down, and the stock empty or dealt through once. Both only grow along a line without
    // undo, so a binary search over POST /replays (nothing stored) finds it.
    const provable = async (n: number) => {
      const answer = await fetch(`${local.url}/replays`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deck: line.deck, moves: moves.slice(0, n) }),
      });
      const { view } = (await answer.json()) as any;
      return view.tableau.every((c: any) => c.hidden === 0) && (view.stock.count === 0 || view.pass >= 2);
    };
    let low = 0;
    let high = moves.length;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (await provable(mid)) high = mid;
      else low = mid + 1;
    }
    expect(low).toBeLessThan(moves.length - 5);
    const io = streams([
      'hint',
      'autocomplete',
      ...moves.slice(0, low).map((move) => moveCommand(move)),
      'a',
      'autocomplete',
    ]);
    const status = await runPlay({ ...io, url: local.url, newGame: { deck: line.deck }, color: false });
    const out = io.text();
    expect(status).toBe(0);
    expect(out).toMatch(/> hint\nhint: (\S+ \S+( \d+)?|d|r) {2}\(.+\)\n/);
    // The hint's reason draws its cards as the board does.
    const reason = /> hint\nhint: .* {2}\((.+)\)\n/.exec(out)![1]!;
    expect(reason).not.toMatch(/(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])/);
    expect(out).toMatch(/> autocomplete\nrefused: The win cannot be proved/);
    expect(out).toMatch(
      /> a\n(ok: \d+ cards? home|no card can go home just now|\S+ could go home, but autoplay leaves)/,
    );
    expect(out).toMatch(/> autocomplete\nok: played to the end in \d+ moves/);
    expect(out).toMatch(/Won in \d+ moves!/);
  });
});

describe('when the server is down or slow', () => {
  let silent: Server;
  let silentUrl = '';
  beforeAll(async () => {
    silent = createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('says so in one line when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const io = streams();
    expect(await runPlay({ ...io, url })).toBe(1);
    expect(io.text()).toBe(
      `cannot reach ${url}: is \`npm start\` running? (on another port: PORT=... as it was started, or --url)\n`,
    );
  });

  it('gives up on a request after the timeout', async () => {
    const io = streams();
    expect(await runReplay({ ...io, url: silentUrl, source: 'some-game', timeoutMs: 300 })).toBe(1);
    expect(io.text()).toMatch(/^http:\/\/127\.0\.0\.1:\d+ did not answer within 0\.3 s/);
    expect(io.text().split('\n')).toHaveLength(2);
  });

  it('the klondike command prints one line and no stack trace', async () => {
    const run = promisify(execFile);
    const failed = await run(
      process.execPath,
      ['client/bin/klondike.mjs', 'play', '--url', silentUrl, '--timeout', '0.3'],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+ did not answer within 0\.3 s[^\n]*\n$/);
    expect(failed.stdout).toBe('');
  });
});

describe('a session against a stand-in API', () => {
  const base = emptyView();
  /** The game at `version`, with something to undo and to redo. */
  const at = (version: number) => ({ ...base, version, canUndo: true, canRedo: true });
  /** An API that deals `base`, and answers the rest as `routes` say. */
  const fakeApi = (routes: Record<string, unknown>) =>
    ({
      url: 'http://example.test',
      token: 't',
      createGame: async () => ({ ...base, token: 't' }),
      ...routes,
    }) as any;

  it("takes back an autoplay's cards with one u and plays them again with one y; a move alone, alone", async () => {
    const sent: string[] = [];
    const api = fakeApi({
      // Three cards home at once: versions 1 to 3.
      autoplay: async (_id: string, expected: number) => {
        sent.push(`autoplay at ${expected}`);
        return { ...at(expected + 3), foundations: { C: ['AC', '2C', '3C'], D: [], H: [], S: [] } };
      },
      move: async (_id: string, _move: unknown, expected: number) => {
        sent.push(`move at ${expected}`);
        return at(expected + 1);
      },
      undo: async (_id: string, expected: number) => {
        sent.push(`undo at ${expected}`);
        return at(expected + 1);
      },
      redo: async (_id: string, expected: number) => {
        sent.push(`redo at ${expected}`);
        return at(expected + 1);
      },
    });
    const io = streams(['a', 'u', 'y', 'd', 'u', 'q']);
    expect(await runPlay({ ...io, api, color: false })).toBe(0);
    expect(sent).toEqual([
      'autoplay at 0',
      'undo at 3',
      'undo at 4',
      'undo at 5',
      'redo at 6',
      'redo at 7',
      'redo at 8',
      'move at 9',
      'undo at 10',
    ]);
    expect(io.text()).toContain('> u\nok: undone (the 3 cards autoplay sent home, at once)');
    expect(io.text()).toContain('> y\nok: redone (the 3 cards autoplay sent home, at once)');
    expect(io.text()).toContain('> u\nok: undone\n');
  });

  it('takes back one event with u once b finds the game moved on; the input ending at the resign question ends the session', async () => {
    const sent: string[] = [];
    const api = fakeApi({
      autoplay: async (_id: string, expected: number) => at(expected + 3),
      // Another window undid one card meanwhile.
      getGame: async () => at(4),
      undo: async (_id: string, expected: number) => {
        sent.push(`undo at ${expected}`);
        return at(expected + 1);
      },
    });
    const io = streams(['a', 'b', 'u', 'resign']);
    expect(await runPlay({ ...io, api, color: false })).toBe(0);
    expect(sent).toEqual(['undo at 4']);
    expect(io.text()).toContain('> u\nok: undone\n');
    expect(io.text()).not.toContain('Not resigned');
    expect(io.text()).toMatch(/\(y\/n\) \n\nLeft at version 5\./);
  });

  it('resigns a daily game once asked, naming its day, with no version (a confirmed resignation ends the game as it is), and no analysis while its day lasts', async () => {
    const sent: unknown[] = [];
    const daily = { ...base, daily: '2026-05-14' };
    const api = fakeApi({
      createGame: async () => ({ ...daily, token: 't' }),
      resign: async (_id: string, expected?: number) => {
        sent.push(expected);
        return { ...daily, version: 1, status: 'resigned' as const };
      },
      analysis: async () => {
        throw new Error('no analysis is asked while the day lasts');
      },
    });
    const io = streams(['resign', 'y']);
    expect(await runPlay({ ...io, api, color: false })).toBe(0);
    expect(sent).toEqual([undefined]);
    expect(io.text()).toContain(
      'Resign? Your one game on the daily deal of 2026-05-14 ends here, lost. (y/n) y',
    );
    expect(io.text()).toContain('Resigned at version 1.');
    expect(io.text()).not.toContain('no analysis is asked');
  });

  it('keeps the prompt after a failed request, and ends when the game is won', async () => {
    const { NetworkError } = await import('../../client/api.js');
    let calls = 0;
    const api = {
      url: 'http://example.test',
      token: 't',
      createGame: async () => ({ ...base, token: 't' }),
      // Read again after the failure: the draw was not played.
      getGame: async () => base,
      move: async () => {
        calls++;
        if (calls === 1) throw new NetworkError('cannot reach http://example.test: connection refused');
        return {
          ...base,
          version: 1,
          status: 'won' as const,
          moves: 1,
          score: { vegas: 208, standard: 520 },
        };
      },
    } as any;
    const io = streams(['d', 'd', 'd']);
    expect(await runPlay({ ...io, api, color: false })).toBe(0);
    expect(io.text()).toContain(
      '> d\ncannot reach http://example.test: connection refused\nIt has not been played so far: the table is as shown.\n> d\nok: draw',
    );
    expect(io.text()).toContain('version 1  WON');
    expect(io.text()).toContain('Won in 1 move! Score: vegas 208, standard 520.');
    expect(io.text()).toContain('Replay it: npm run replay -- g1 --url http://example.test');
    expect(io.text()).not.toContain('> d\n> d\n> d');
  });
});

describe('a winnable deal without cards back from the foundations', () => {
  it('says the rule on the table, and no seed once resigned', async () => {
    const io = streams(['resign', 'y']);
    const newGame = { winnable: true, rules: { foundationToTableau: false } };
    expect(await runPlay({ ...io, url: local.url, newGame, color: false })).toBe(0);
    expect(io.text()).toContain(
      'draw 3 · pass 1 of 3 (2 recycles left) · no card back from the foundations · 0 moves',
    );
    expect(io.text()).toContain('Resigned at version 1.\n');
    expect(io.text()).not.toContain('seed');
  });
});

/**
 * A game dealt and played at the prompt through `api`: once its table is drawn, its token is handed
 * to `started` (for another window's requests), then `lines` are typed. Its exit status and transcript.
 */
async function typedSession(api: Api, newGame: NewGame, lines: string[], started: (token: string) => void) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const session = runPlay({ input, output, api, newGame, color: false });
  while (!text.includes('Type h for help')) await new Promise((resolve) => setTimeout(resolve, 10));
  started(api.token!);
  input.end(lines.map((line) => `${line}\n`).join(''));
  return { status: await session, text };
}

describe('a game resigned elsewhere', () => {
  it('is read again when a resignation here is refused as over, and the session ends', async () => {
    let token = '';
    // Another window resigns just before this one's resignation arrives.
    const meddling: typeof fetch = async (input, init) => {
      if (init?.method === 'POST' && String(input).endsWith('/resign')) {
        const outside = await fetch(String(input), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(outside.status).toBe(200);
      }
      return fetch(input, init);
    };
    const api = createApi({ url: local.url, fetch: meddling });
    const { status, text } = await typedSession(api, { seed: 12 }, ['resign', 'y', 'd'], (given) => {
      token = given;
    });
    expect(status).toBe(0);
    expect(text).toMatch(/\(y\/n\) y\nrefused: .*\nThis game was played on meanwhile/);
    expect(text).toContain('version 1  resigned');
    expect(text).toContain('Resigned at version 1.');
    // No prompt after it: the d left in the input was never asked for.
    expect(text).not.toContain('> d');
  });
});

describe('a write whose answer never came, and a game played on elsewhere', () => {
  it('reads the game again: a draw that landed is shown, never played twice; one typed over a table played on is not played', async () => {
    let writes = 0;
    let token = '';
    // The first draw lands, but its answer comes only after the client gave up on it. Just before
    // the second arrives, another window draws.
    const meddling: typeof fetch = async (input, init) => {
      const write = init?.method === 'POST' && String(input).endsWith('/moves');
      if (write && ++writes === 2) {
        const outside = await fetch(String(input), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify({ type: 'draw' }),
        });
        expect(outside.status).toBe(200);
      }
      const answer = await fetch(input, { ...init, signal: null });
      if (!(write && writes === 1)) return answer;
      return new Promise((_, reject) => {
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason));
      });
    };
    const api = createApi({ url: local.url, timeoutMs: 300, fetch: meddling });
    const { status, text } = await typedSession(api, { seed: 11 }, ['d', 'd', 'd', 'q'], (given) => {
      token = given;
    });
    expect(status).toBe(0);
    expect(text).toMatch(
      /> d\n\S+ did not answer within 0.3 s[^\n]*\nThe game moved on all the same: here is the table as it is now\.\n\nKlondike {2}game \S+ {2}version 1 /,
    );
    expect(text).toMatch(
      /> d\nThis game was played on meanwhile \(in another window, or by a command whose answer never came\): here it is as it is now\.\n\nKlondike {2}game \S+ {2}version 2 /,
    );
    expect(text).toContain('> d\nok: draw');
    expect(text).toMatch(/Left at version 3\./);
    // Three draws in all: the one whose answer never came, the other window's, and the last.
    const id = /New game (\S+)/.exec(text)![1]!;
    const now = await fetch(`${local.url}/games/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await now.json()) as { version: number }).version).toBe(3);
  });
});
