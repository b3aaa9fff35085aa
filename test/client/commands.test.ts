import { describe, expect, it } from 'vitest';
import { ApiError, createApi, Interrupted } from '../../client/api.js';
import { parseCommand } from '../../client/commands.js';
import { errorLine } from '../../client/main.js';
import { UsageError } from '../../client/options.js';
import { parsePlayArgs, playMain } from '../../client/run-play.js';
import { parseReplayArgs, replayMain, runReplay } from '../../client/run-replay.js';
import { deckFromSeed, formatCard } from '../../domain/index.js';
import { streams } from './streams.js';

const move = (from: string, to: string, count?: number) => ({
  kind: 'move',
  move: { type: 'move', from, to, ...(count === undefined ? {} : { count }) },
});

describe('parseCommand', () => {
  it.each([
    ['d', { kind: 'move', move: { type: 'draw' } }],
    ['draw', { kind: 'move', move: { type: 'draw' } }],
    ['r', { kind: 'move', move: { type: 'recycle' } }],
    ['u', { kind: 'undo' }],
    ['undo', { kind: 'undo' }],
    ['y', { kind: 'redo' }],
    ['?', { kind: 'legal' }],
    ['resign', { kind: 'resign' }],
    ['hint', { kind: 'hint' }],
    ['a', { kind: 'autoplay' }],
    ['autoplay', { kind: 'autoplay' }],
    ['autocomplete', { kind: 'autocomplete' }],
    ['finish', { kind: 'autocomplete' }],
    ['h', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['q', { kind: 'quit' }],
    ['quit', { kind: 'quit' }],
    ['', { kind: 'board' }],
    ['  B ', { kind: 'board' }],
  ])('reads the word %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command);
  });

  it.each([
    ['7 3', move('t7', 't3')],
    ['t7 t3', move('t7', 't3')],
    ['T7 T3', move('t7', 't3')],
    ['7 3 2', move('t7', 't3', 2)],
    ['t7 t3 2', move('t7', 't3', 2)],
    ['7,3', move('t7', 't3')],
    ['7 -> 3', move('t7', 't3')],
    ['73', move('t7', 't3')],
    ['73 2', move('t7', 't3', 2)],
    ['w 3', move('waste', 't3')],
    ['waste t3', move('waste', 't3')],
    ['w f', move('waste', 'foundation')],
    ['wf', move('waste', 'foundation')],
    ['7 f', move('t7', 'foundation')],
    ['7f', move('t7', 'foundation')],
    ['7 fh', move('t7', 'fH')],
    ['7 foundation', move('t7', 'foundation')],
    ['fh 3', move('fH', 't3')],
    ['fh3', move('fH', 't3')],
    ['FS t1', move('fS', 't1')],
  ])('reads the move %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command);
  });

  it.each([
    ['xyzzy', /not a command/],
    ['7', /not a command/],
    ['fh', /not a command/],
    ['8 3', /"8" is not a pile to move from/],
    ['f 3', /"f" is not a pile to move from/],
    ['3 w', /"w" is not a pile to move to/],
    ['7 3 x', /"x" is not a number of cards/],
    ['7 3 0', /1 to 13 cards, not 0/],
    ['7 3 14', /1 to 13 cards, not 14/],
    ['7 3 2 1', /not a command/],
  ])('refuses %j', (line, message) => {
    const command = parseCommand(line);
    expect(command.kind).toBe('error');
    expect(command.kind === 'error' && command.message).toMatch(message);
  });
});

describe('the default URL', () => {
  const urlOf = (env: NodeJS.ProcessEnv, argv: string[] = []) => {
    const parsed = parsePlayArgs(argv, env);
    return 'url' in parsed ? parsed.url : undefined;
  };

  it('is the port of npm start: PORT, else 3000', () => {
    expect(urlOf({})).toBe('http://127.0.0.1:3000');
    expect(urlOf({ PORT: '4123' })).toBe('http://127.0.0.1:4123');
    const replay = parseReplayArgs(['some-game'], { PORT: '4123' });
    expect('url' in replay && replay.url).toBe('http://127.0.0.1:4123');
  });

  it('gives way to KLONDIKE_URL and --url', () => {
    expect(urlOf({ PORT: '4123', KLONDIKE_URL: 'http://elsewhere.test' })).toBe('http://elsewhere.test');
    expect(urlOf({ PORT: '4123' }, ['--url', 'http://there.test'])).toBe('http://there.test');
  });

  it('refuses a PORT that is not a port number, unless a URL is given', () => {
    for (const port of ['abc', '0', '70000', '3000x'])
      expect(() => urlOf({ PORT: port }), port).toThrow(UsageError);
    expect(() => urlOf({ PORT: 'abc' })).toThrow(/PORT is "abc", not a port number/);
    expect(urlOf({ PORT: 'abc' }, ['--url', 'http://there.test'])).toBe('http://there.test');
  });
});

describe('command-line mistakes', () => {
  it('say how to write a value that starts with a dash, and then what the value must be', () => {
    expect(() => parsePlayArgs(['--seed', '-1'], {})).toThrow(
      '--seed needs a value, and "-1" reads as an option: write --seed=-1 to give it',
    );
    expect(() => parseReplayArgs(['some-game', '--at', '-1'], {})).toThrow(
      '--at needs a value, and "-1" reads as an option: write --at=-1 to give it',
    );
    expect(() => parsePlayArgs(['--seed=-1'], {})).toThrow(
      /--seed takes a whole number from 0 to 4294967295, not "-1"/,
    );
    // Any whole number of passes the API takes (its bound is 2^53 - 1, as the client's).
    expect(parsePlayArgs(['--passes', '99999999999'], {})).toMatchObject({
      newGame: { rules: { passes: 99999999999 } },
    });
    expect(() => parsePlayArgs(['--passes', '9007199254740992'], {})).toThrow(
      '--passes takes a whole number from 1 to 9007199254740991, not "9007199254740992"',
    );
    // Numbers with no upper bound but the largest a client can hold name none.
    expect(() => parseReplayArgs(['some-game', '--at', '1e2'], {})).toThrow(
      '--at takes a whole number 0 or more, not "1e2"',
    );
    expect(() => parsePlayArgs(['--passes', '0'], {})).toThrow(
      '--passes takes a whole number 1 or more, not "0"',
    );
    // The API's address: an empty KLONDIKE_URL is unset (as PORT); another scheme than http(s) is none.
    expect(parsePlayArgs([], { KLONDIKE_URL: '', PORT: '4123' })).toMatchObject({
      url: 'http://127.0.0.1:4123',
    });
    expect(() => parsePlayArgs(['--url', 'ftp://x'], {})).toThrow(
      `--url takes the API's http(s) URL, not "ftp://x"`,
    );
    expect(() => parsePlayArgs([], { KLONDIKE_URL: 'nonsense://' })).toThrow(/^KLONDIKE_URL takes/);
    expect(parsePlayArgs(['--url', 'localhost:3000'], {})).toMatchObject({ url: 'localhost:3000' });
    // A leaderboard name's length is checked before anything is sent (a letter with its marks is one).
    expect(() => parsePlayArgs(['--player', 'p', '--name', 'x'.repeat(25)], {})).toThrow(
      '--name takes 1 to 24 characters, not 25',
    );
    expect(() => parsePlayArgs(['--player', 'p', '--name', '  '], {})).toThrow(
      '--name takes 1 to 24 characters, not 0',
    );
    expect(parsePlayArgs(['--player', 'p', '--name', `${'e\u0301'.repeat(24)}`], {})).toMatchObject({
      player: 'p',
    });
    // Both commands sign in with --player, read by one rule.
    expect(parseReplayArgs(['g1', '--player', 'tess'], {})).toMatchObject({ source: 'g1', player: 'tess' });
    expect(() => parseReplayArgs(['g1', '--player', 'no one'], {})).toThrow(
      '--player takes a name of 1 to 64 letters, digits, _ . @ or -, not "no one"',
    );
    // A wait no timer can hold is refused, not reported as the server out of reach.
    expect(() => parsePlayArgs(['--timeout', '1e9'], {})).toThrow(
      /^--timeout takes seconds, more than 0 and at most 86400/,
    );
  });

  it('name a deck card that is none, or one given twice, before anything is sent', () => {
    const deck = deckFromSeed(42).map(formatCard);
    expect(parsePlayArgs(['--deck', deck.join(',')], {})).toMatchObject({ newGame: { deck } });
    expect(() => parsePlayArgs(['--deck', ['1X', ...deck.slice(1)].join(' ')], {})).toThrow(
      'card 1 of --deck, "1X", is no card: a rank A 2..10 J Q K, then a suit C D H S (10H, TH, 7S)',
    );
    expect(() => parsePlayArgs(['--deck', [deck[1], ...deck.slice(1)].join(' ')], {})).toThrow(
      `--deck has ${deck[1]} twice: a deck has each card once`,
    );
    const digits = deck.map(
      (card) =>
        `${String('A23456789TJQK'.indexOf(card[0]!) + 1).padStart(2, '0')}${'CDHS'.indexOf(card[1]!) + 1}`,
    );
    expect(parsePlayArgs(['--deck', digits.join('')], {})).toMatchObject({
      newGame: { deck: digits.join('') },
    });
    expect(() => parsePlayArgs(['--deck', `145${digits.slice(1).join('')}`], {})).toThrow(
      'card 1 of --deck, "145", is no card: three digits, a rank 01..13 then a suit 1..4 (C D H S)',
    );
  });

  it('take a winnable deal and the rule of cards back from the foundations', () => {
    expect(parsePlayArgs(['--winnable', '--foundation-to-tableau', 'no'], {})).toMatchObject({
      newGame: { winnable: true, rules: { foundationToTableau: false } },
    });
    expect(() => parsePlayArgs(['--winnable', '--seed', '3'], {})).toThrow(
      '--winnable lets the service choose the deal: it takes no --seed or --deck',
    );
    expect(() => parsePlayArgs(['--foundation-to-tableau', 'maybe'], {})).toThrow(
      '--foundation-to-tableau takes yes or no, not "maybe"',
    );
  });

  it('take a token that starts with a dash written --token=, as the resume line writes it', () => {
    const token = '-7eKNsH15aQ';
    const line = `--game 3b8f3a2e-0000-4000-8000-000000000000 --token=${token}`;
    expect(parsePlayArgs(line.split(' '), {})).toMatchObject({ token });
    expect(() => parsePlayArgs(['--token', token], {})).toThrow(`write --token=${token} to give it`);
  });
});

describe('every refusal of a command line, in one frame', () => {
  it('says the command, the mistake, and where the usage is, with exit status 2', async () => {
    const play = streams();
    expect(await playMain(['--game', 'g1'], play, {})).toBe(2);
    expect(play.text()).toBe(
      'klondike play: --game needs --token T (the token the game was dealt with), or --player NAME for a game of yours (--help for usage)\n',
    );
    const replay = streams();
    expect(await replayMain(['no/such/game.json'], replay, {})).toBe(2);
    expect(replay.text()).toBe(
      'klondike replay: no/such/game.json: no such file, and not a game id (--help for usage)\n',
    );
    // Found out once the game is asked for: a version past its end.
    const api = { url: 'http://127.0.0.1:3000', getGame: async () => ({ version: 4, status: 'won' }) } as any;
    const past = streams();
    expect(await runReplay({ ...past, api, source: 'g1', at: 9 })).toBe(2);
    expect(past.text()).toBe(
      'klondike replay: --at 9 is past the end: game g1 (won) has versions 0 to 4 (--help for usage)\n',
    );
  });
});

describe('a refusal or a failure, on one line', () => {
  const problem = (status: number, detail: string) =>
    new ApiError(status, { type: '/problems/x', title: 'x', status, detail });

  it('draws the cards as the board does, in words without HTTP', () => {
    expect(errorLine(problem(422, 'Move AC from t2 to fC: QH does not go on KD.'))).toBe(
      'refused: Move A♣ from t2 to fC: Q♥ does not go on K♦.',
    );
    const busy = errorLine(
      problem(503, 'The game store is unavailable; retry with the same Idempotency-Key.'),
    );
    expect(busy).not.toMatch(/Idempotency-Key/);
    expect(busy).toBe('error: the service is not answering just now.');
    // No HTTP status in a player's line.
    expect(errorLine(problem(403, 'This token does not open this game.'))).toBe(
      'error: This token does not open this game.',
    );
  });
});

describe('Ctrl-C during a request', () => {
  it('ends the request at once, as interrupted, whatever its timeout', async () => {
    const stop = new AbortController();
    // A service that never answers: only the signal ends the request.
    const silent: typeof fetch = (_input, init) =>
      new Promise((_, reject) => {
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason));
      });
    const api = createApi({
      url: 'http://example.test',
      timeoutMs: 600_000,
      fetch: silent,
      signal: stop.signal,
    });
    const pending = api.move('g1', { type: 'draw' }, 4);
    stop.abort();
    await expect(pending).rejects.toBeInstanceOf(Interrupted);
  });
});
