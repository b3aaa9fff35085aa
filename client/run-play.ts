import { type Api, ApiError, DEFAULT_URL, Interrupted, NetworkError } from './api.js';
import { leftToGoHome } from './autoplay.js';
import { HELP, parseCommand } from './commands.js';
import { isDay, shiftDay } from './days.js';
import { type LineReader, lineReader, type Streams } from './io.js';
import { cliMain, errorLine, type MainStreams, session } from './main.js';
import { NAME_MAX, nameCharacters } from './names.js';
import {
  COMMON_OPTIONS,
  type CommonOptions,
  commonOptions,
  integer,
  parse,
  parseDeck,
  UsageError,
} from './options.js';
import {
  describeMove,
  moveCommand,
  printable,
  renderAnalysis,
  renderBoard,
  renderDaily,
  renderHint,
  renderLeaderboard,
  renderLegalMoves,
  renderStats,
  withSymbols,
} from './render.js';
import type { GameEvent, NewGame, Rules, View } from './types.js';

export interface PlayConfig extends Streams, Partial<CommonOptions> {
  /** Resume this game (needs `token`, or `player` for a game of theirs) instead of creating one. */
  game?: string;
  /** The body of POST /games for a new game. */
  newGame?: NewGame;
  /** Play today's daily deal (signed in): the player's one game on it, dealt or resumed. */
  daily?: boolean;
  /** The name the leaderboards show for the player (PUT /me/profile), set before playing. */
  name?: string;
  /** Print a day's leaderboard (today's when `date` is left out) and end, without playing. */
  leaderboard?: { date?: string; limit: number };
  /** Where one-line fatal errors go (default: output). */
  errors?: NodeJS.WritableStream;
  /** An API client to use instead of one made from `url`, `token` and `timeoutMs`. */
  api?: Api;
}

const MAX_SEED = 4294967295;

const cardsHome = (view: View): number => Object.values(view.foundations).flat().length;

/** The entries of a leaderboard a page asks for at most (the API's own limit). */
const BOARD_PAGE = 100;

/** ` --url U` where the API is not the default one: for the commands the client prints. */
const urlOption = (api: Api): string => (api.url === DEFAULT_URL ? '' : ` --url ${api.url}`);

/**
 * A day's leaderboard, as many entries as `limit` (page after page): `date` is YYYY-MM-DD,
 * `yesterday`, or today's when left out (today by the server's clock, from GET /daily). Signed in,
 * the rows under the player's name are marked, and with `player` (the development sign-in) the
 * command for the next entries signs in as them too.
 */
async function leaderboardText(
  api: Api,
  date: string | undefined,
  limit: number,
  player: string | undefined,
): Promise<string> {
  const you = api.player === undefined ? undefined : (await api.profile()).displayName;
  const day =
    date === undefined || date === 'yesterday'
      ? await api.daily().then((today) => (date ? shiftDay(today.date, -1) : today.date))
      : date;
  let page = await api.leaderboard(day, Math.min(limit, BOARD_PAGE));
  const entries = [...page.entries];
  while (page.next !== null && entries.length < limit) {
    page = await api.leaderboard(day, Math.min(limit - entries.length, BOARD_PAGE), page.next);
    entries.push(...page.entries);
  }
  const text = renderLeaderboard({ ...page, entries }, you);
  return page.next === null
    ? text
    : `${text}\n  more: npm run play -- --leaderboard --date ${day} --limit ${limit + 20}${player === undefined ? '' : ` --player ${player}`}${urlOption(api)}`;
}

/**
 * A read model once it has caught up with the game (the read models follow the log within about
 * 2 s): `read` asked again every 300 ms until `caughtUp` says so, 3 s at most; then as it is.
 */
async function once<T>(read: () => Promise<T>, caughtUp: (answer: T) => boolean): Promise<T> {
  let answer = await read();
  for (let tries = 0; !caughtUp(answer) && tries < 10; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    answer = await read();
  }
  return answer;
}

/**
 * The standing of the player's game on `day`'s deal once the read models show it as it ended:
 * today's standing while its day lasts. After it, whether the game has a place on that day's
 * leaderboard: only a game won on its day is ranked (`ending`: the game's last event, which ended it).
 */
async function standingAfter(
  api: Api,
  day: string,
  status: View['status'],
  ending: GameEvent | undefined,
): Promise<string> {
  const today = await once(api.daily, (answer) => answer.date !== day || answer.me?.status === status);
  if (today.date === day) return renderDaily(today, true);
  const yours = `Your game on the daily deal of ${day}`;
  if (status !== 'won')
    return `${yours} was not won, so it has no place on that day's leaderboard: only won games are ranked.`;
  if (ending !== undefined && Date.parse(ending.at) < Date.parse(`${shiftDay(day, 1)}T00:00:00Z`))
    return `${yours} was won on its day: its rank is on that day's leaderboard (npm run play -- --leaderboard --date ${day}${urlOption(api)}).`;
  return `${yours} was won after its day was over (00:00 UTC), so it is not ranked: only a game won on its day is.`;
}

/** The player's record once it counts the game's ending (`ending`, its last event): as of its time, or later. */
async function recordAfter(api: Api, ending: GameEvent | undefined): Promise<string> {
  const record = await once(
    api.myStats,
    (stats) => ending === undefined || (stats.asOf !== null && stats.asOf >= ending.at),
  );
  return renderStats(api.player!, record);
}

/**
 * Why autoplay sent no card home: none could go, or the one that could is the waste's before the
 * last pass at draw 3 (taking it out changes what later passes deal), or one a card in play may
 * still need; with the command that sends it all the same.
 */
export function whyNoneHome(view: View): string {
  const left = leftToGoHome(view);
  if (left === undefined) return 'no card can go home just now';
  const card = withSymbols(left.card);
  const why = left.waste
    ? 'autoplay leaves the waste alone before the last pass (taking a card out changes what later passes deal)'
    : 'autoplay leaves it while a card in play may still need it';
  return `${card} could go home, but ${why}: \`${moveCommand(left.move)}\` sends it`;
}

/**
 * Plays one game at the prompt: creates it (or resumes it), draws the table, then reads commands
 * from `input` until the game ends, the input ends, or `q`. Resolves to an exit status.
 */
export async function runPlay(config: PlayConfig): Promise<number> {
  // Ctrl-C at the prompt ends the session; during a request, the request too.
  const interrupt = new AbortController();
  const { print, fail, color, api } = session({ ...config, signal: interrupt.signal });

  if (config.leaderboard) {
    try {
      if (config.player) await api.signIn(config.player);
      print(await leaderboardText(api, config.leaderboard.date, config.leaderboard.limit, config.player));
      return 0;
    } catch (error) {
      fail(errorLine(error));
      return 1;
    }
  }

  let view: View;
  /** The game's own token, when the client dealt the game: it opens it for good (a sign-in lasts an hour). */
  let gameToken: string | undefined;
  try {
    if (config.player) {
      await api.signIn(config.player);
      print(`Signed in as ${config.player} (the local runtime's development issuer).`);
    }
    if (config.name !== undefined) {
      const profile = await api.setName(config.name);
      print(`The leaderboards show you as ${printable(profile.displayName)}.`);
    }
    if (config.daily) {
      print(renderDaily(await api.daily(), true));
      const answer = await api.playDaily();
      if ('token' in answer) {
        const { token, ...dealt } = answer;
        view = dealt;
        gameToken = token;
        print(`Today's deal: game ${view.id} (one attempt a day; no hint until the day is over).`);
      } else {
        view = answer;
        print(`Your game on today's deal, ${view.id}, at version ${view.version}.`);
      }
    } else if (config.game) {
      view = await api.getGame(config.game);
      print(`Resumed game ${view.id} at version ${view.version}.`);
    } else {
      const { token, ...created } = await api.createGame(config.newGame ?? {});
      view = created;
      gameToken = token;
      print(`New game ${view.id}`);
      print(`token ${token}`);
    }
  } catch (error) {
    fail(errorLine(error));
    return 1;
  }
  const overOnArrival = view.status !== 'playing';
  const at = urlOption(api);
  // `--token=`: a token is base64url, and one that starts with `-` would read as an option.
  const signedAs = config.player ? `--player ${config.player}` : `--token=${gameToken ?? api.token}`;
  // By its id, the daily game too: `--daily` after midnight UTC would deal the next day's.
  const resume = `npm run play -- --game ${view.id} ${signedAs}${at}`;
  if (view.status === 'playing') print(`Resume it later with: ${resume}`);
  print();
  print(renderBoard(view, { color }));
  // A finished game takes no command: the board says how it ended.
  if (view.status === 'playing') print('Type h for help, ? for the legal moves.');

  /**
   * After a write that failed: why, and, where the game may have moved meanwhile (a 412; or no
   * answer, so the write may have landed after all), the game read again and shown as it is now.
   * Undefined where the table shown stands.
   */
  async function afterFailure(error: unknown, shown: View): Promise<View | undefined> {
    const movedOn = error instanceof ApiError && error.status === 412;
    // Refused as over: ended elsewhere (a resignation names no version, so it meets no 412).
    const ended = error instanceof ApiError && error.problem.rule === 'game-over';
    const unsure = error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
    if (!movedOn) print(errorLine(error));
    if (!movedOn && !unsure && !ended) return undefined;
    let now: View;
    try {
      now = await api.getGame(shown.id);
    } catch (again) {
      if (again instanceof Interrupted) throw again;
      print('The table shown may be behind the game: b shows the game as it is, once the service answers.');
      return undefined;
    }
    if (movedOn || ended) {
      print(
        'This game was played on meanwhile (in another window, or by a command whose answer never came): here it is as it is now.',
      );
    } else if (now.version === shown.version) {
      // It may still land (a request held on its way): the next command, made on this table, is
      // then refused as stale, and the table read again.
      print('It has not been played so far: the table is as shown.');
      return undefined;
    } else {
      print('The game moved on all the same: here is the table as it is now.');
    }
    print();
    print(renderBoard(now, { color }));
    return now;
  }

  /**
   * What the player answers when asked whether to resign (it ends the game for good: the one
   * attempt, for a daily deal); undefined when the input ended (Ctrl-C, Ctrl-D) instead.
   */
  async function resignConfirmed(reader: LineReader): Promise<boolean | undefined> {
    const answer = await reader.ask(
      view.daily
        ? `Resign? Your one game on the daily deal of ${view.daily} ends here, lost. (y/n) `
        : 'Resign? The game ends here, and its deal is shown. (y/n) ',
    );
    return answer === undefined ? undefined : /^y(es)?$/i.test(answer.trim());
  }

  /**
   * The actions played at this prompt, as one u takes them back and one y plays them again: an
   * autoplay's cards home at once, as the web table does. Before the first of them, and once the
   * game is read again after a failure, u takes back one event.
   */
  let actions = { done: [] as number[], undone: [] as number[] };
  const acted = (events: number) => {
    if (events > 0) actions.done.push(events);
    actions.undone = [];
  };
  const group = (events: number) => (events > 1 ? ` (the ${events} cards autoplay sent home, at once)` : '');

  /** Ctrl-C ended a request: a read, or a write that may have been played. */
  let interrupted: 'read' | 'write' | false = false;

  /** A read at the prompt: what it answers, or why not; Ctrl-C during it ends the session. */
  const read = async (answer: () => Promise<string>): Promise<void> => {
    try {
      print(await answer());
    } catch (error) {
      if (error instanceof Interrupted) interrupted = 'read';
      else print(errorLine(error));
    }
  };

  const reader: LineReader = lineReader(config, () => interrupt.abort());
  try {
    while (view.status === 'playing') {
      const line = await reader.ask('> ');
      if (line === undefined) break;
      const command = parseCommand(line);
      if (command.kind === 'quit') break;
      switch (command.kind) {
        case 'error':
          print(command.message);
          continue;
        case 'help':
          print(HELP);
          continue;
        case 'board':
          // As the service has the game now: another window may have played on, and then u takes
          // back one event again.
          try {
            const now = await api.getGame(view.id);
            if (now.version !== view.version) actions = { done: [], undone: [] };
            view = now;
          } catch (error) {
            if (error instanceof Interrupted) {
              interrupted = 'read';
              break;
            }
            print(`${errorLine(error)} The table as last seen:`);
          }
          print(renderBoard(view, { color }));
          continue;
        case 'legal':
          print(renderLegalMoves(view, { color }));
          continue;
        case 'hint':
          await read(async () => renderHint(await api.hint(view.id)));
          if (interrupted) break;
          continue;
        case 'daily':
          await read(async () => renderDaily(await api.daily(), api.player !== undefined));
          if (interrupted) break;
          continue;
        case 'leaderboard':
          await read(() => leaderboardText(api, command.date, 20, config.player));
          if (interrupted) break;
          continue;
        case 'stats':
          if (api.player === undefined) print('Sign in to keep a record: npm run play -- --player NAME');
          else await read(async () => renderStats(api.player!, await api.myStats()));
          if (interrupted) break;
          continue;
      }
      if (interrupted) break;
      if (command.kind === 'resign') {
        const confirmed = await resignConfirmed(reader);
        if (confirmed === undefined) break;
        if (!confirmed) {
          print('Not resigned: play on.');
          continue;
        }
      }
      const before = view;
      const shown = before.version;
      try {
        switch (command.kind) {
          case 'move':
            view = await api.move(view.id, command.move, shown);
            acted(1);
            print(`ok: ${describeMove(command.move, before, color)}`);
            break;
          case 'undo': {
            const events = actions.done.pop() ?? 1;
            for (let i = 0; i < events; i++) view = await api.undo(view.id, view.version);
            actions.undone.push(events);
            print(`ok: undone${group(events)}`);
            break;
          }
          case 'redo': {
            const events = actions.undone.pop() ?? 1;
            for (let i = 0; i < events; i++) view = await api.redo(view.id, view.version);
            actions.done.push(events);
            print(`ok: redone${group(events)}`);
            break;
          }
          case 'resign':
            // Confirmed: it ends the game as it is, whatever another window played meanwhile.
            view = await api.resign(view.id);
            break;
          case 'autoplay': {
            view = await api.autoplay(view.id, shown);
            acted(view.version - shown);
            const home = cardsHome(view) - cardsHome(before);
            print(home === 0 ? whyNoneHome(view) : `ok: ${home === 1 ? '1 card' : `${home} cards`} home`);
            break;
          }
          case 'autocomplete':
            view = await api.autocomplete(view.id, shown);
            print(`ok: played to the end in ${view.version - before.version} moves`);
            break;
        }
      } catch (error) {
        // The game may not be where the actions played here left it: u takes back one event again.
        actions = { done: [], undone: [] };
        if (!(error instanceof Interrupted)) {
          try {
            view = (await afterFailure(error, before)) ?? view;
            continue;
          } catch {
            // Interrupted while the game was read again.
          }
        }
        interrupted = 'write';
        break;
      }
      print();
      print(renderBoard(view, { color }));
    }
  } finally {
    reader.close();
  }

  print();
  if (interrupted) {
    // A write stopped may have landed: the version shown is not known to be the game's.
    print(
      interrupted === 'write'
        ? `Interrupted: the last command may have been played. Resume with: ${resume}`
        : `Interrupted. Resume with: ${resume}`,
    );
    return 0;
  }
  if (view.status === 'won') {
    print(
      `Won in ${view.moves === 1 ? '1 move' : `${view.moves} moves`}! Score: vegas ${view.score.vegas}, standard ${view.score.standard}.`,
    );
  } else if (view.status === 'resigned') {
    print(
      `Resigned at version ${view.version}.${typeof view.seed === 'number' ? ` The deal was seed ${view.seed}.` : ''}`,
    );
    // A daily game's deal stays secret until its day is over (its view shows no deck until then).
    if (!view.daily || view.deck) {
      try {
        print(renderAnalysis(await api.analysis(view.id), view, at));
      } catch (error) {
        print(errorLine(error));
      }
    }
  } else {
    print(`Left at version ${view.version}. Resume with: ${resume}`);
  }
  if (view.status !== 'playing') {
    print(
      view.daily && !view.deck
        ? `Its replay is public once the day is over (00:00 UTC); yours to replay now: npm run replay -- ${view.id} ${signedAs}${at}`
        : `Replay it: npm run replay -- ${view.id}${at}`,
    );
  }
  if (api.player !== undefined && view.status !== 'playing') {
    try {
      const [ending] = (await api.eventsPage(view.id, view.version - 1, 1)).events;
      // --daily printed the day's standing before showing a game that was already over.
      if (view.daily && !(config.daily && overOnArrival)) {
        print(await standingAfter(api, view.daily, view.status, ending));
      }
      print(await recordAfter(api, ending));
    } catch (error) {
      print(errorLine(error));
    }
  }
  return 0;
}

export const PLAY_USAGE = `Usage: npm run play -- [options]      (or: klondike play [options])

Plays Klondike at the terminal against the HTTP API.

  --seed N              a numbered deal (0..4294967295)
  --deck CARDS          52 card codes in dealing order, comma or space separated, or the 156-digit string
  --winnable            a deal the service proves winnable (drawn like a random one)
  --draw 1|3            cards per draw (default 3)
  --passes N|unlimited  passes through the deck (default 3)
  --foundation-to-tableau yes|no
                        whether a foundation's top card may come back to the tableau (default yes)
  --game ID --token T   resume a game
  --player NAME         sign in at the local runtime's development issuer: the game is yours, :stats
                        shows your record, and --game ID --player NAME resumes it
  --daily               play today's daily deal (with --player): one game a day, the same for everyone;
                        run it again to resume your game; :daily shows the day's standing, lb a leaderboard
  --name NAME           with --player: the name the leaderboards show for you (1 to 24 letters, digits,
                        spaces and - _ . ')
  --leaderboard         print a day's leaderboard and end: --date YYYY-MM-DD or yesterday (default
                        today), --limit N entries (default 20); with --player, the rows under your name marked
  --url URL             the API (default $KLONDIKE_URL, else http://127.0.0.1:$PORT,
                        the port of npm start, 3000 when PORT is not set)
  --timeout SECONDS     per request (default 10)
  --color, --no-color   force colour on or off (default: on for a terminal, off with NO_COLOR)
`;

/** Reads the command line of `npm run play`. */
export function parsePlayArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
):
  | { help: true }
  | ({ help?: false } & Pick<PlayConfig, 'game' | 'daily' | 'name' | 'leaderboard'> & {
        newGame: NewGame;
      } & CommonOptions) {
  const { values } = parse(
    argv,
    {
      ...COMMON_OPTIONS,
      seed: { type: 'string' },
      deck: { type: 'string' },
      draw: { type: 'string' },
      passes: { type: 'string' },
      winnable: { type: 'boolean' },
      'foundation-to-tableau': { type: 'string' },
      game: { type: 'string' },
      daily: { type: 'boolean' },
      name: { type: 'string' },
      leaderboard: { type: 'boolean' },
      date: { type: 'string' },
      limit: { type: 'string' },
    },
    false,
  );
  if (values.help) return { help: true };
  const common = commonOptions(values, env);
  const newGame: NewGame = {};
  if (values.seed !== undefined && values.deck !== undefined)
    throw new UsageError('give --seed or --deck, not both');
  if (values.winnable && (values.seed !== undefined || values.deck !== undefined))
    throw new UsageError('--winnable lets the service choose the deal: it takes no --seed or --deck');
  if (values.winnable) newGame.winnable = true;
  if (typeof values.seed === 'string') newGame.seed = integer('seed', values.seed, 0, MAX_SEED);
  if (typeof values.deck === 'string') newGame.deck = parseDeck(values.deck);
  const rules: Partial<Rules> = {};
  if (typeof values.draw === 'string') {
    if (values.draw !== '1' && values.draw !== '3')
      throw new UsageError(`--draw takes 1 or 3, not "${values.draw}"`);
    rules.draw = Number(values.draw) as 1 | 3;
  }
  if (typeof values.passes === 'string') {
    rules.passes = /^(unlimited|inf|infinite|null)$/i.test(values.passes)
      ? null
      : integer('passes', values.passes, 1, Number.MAX_SAFE_INTEGER);
  }
  const back = values['foundation-to-tableau'];
  if (typeof back === 'string') {
    if (!/^(yes|no)$/i.test(back))
      throw new UsageError(`--foundation-to-tableau takes yes or no, not "${back}"`);
    rules.foundationToTableau = back.toLowerCase() === 'yes';
  }
  if (Object.keys(rules).length > 0) newGame.rules = rules;
  const game = values.game as string | undefined;
  if (game !== undefined && Object.keys(newGame).length > 0) {
    throw new UsageError('--game resumes a game: it takes no deal or rule option');
  }
  const { player } = common;
  if (game !== undefined && player === undefined && common.token === undefined) {
    throw new UsageError(
      '--game needs --token T (the token the game was dealt with), or --player NAME for a game of yours',
    );
  }
  const dealing = Object.keys(newGame).length > 0 || game !== undefined;
  const daily = values.daily === true;
  if (daily && dealing) {
    throw new UsageError("--daily plays today's deal: it takes no deal or rule option, nor --game");
  }
  const name = values.name as string | undefined;
  if ((daily || name !== undefined) && player === undefined && common.token === undefined) {
    throw new UsageError(`${daily ? '--daily' : '--name'} needs --player NAME (a sign-in)`);
  }
  // Its length checked before signing in (a letter with its marks is one character, as the server
  // counts); the rest of the rules are the server's to say.
  const characters = name === undefined ? 0 : nameCharacters(name);
  if (name !== undefined && (characters === 0 || characters > NAME_MAX)) {
    throw new UsageError(`--name takes 1 to ${NAME_MAX} characters, not ${characters}`);
  }
  const date = values.date as string | undefined;
  const limit = values.limit as string | undefined;
  if (values.leaderboard) {
    if (dealing || daily || name !== undefined) {
      throw new UsageError('--leaderboard prints a leaderboard and plays nothing: it takes no game options');
    }
    if (date !== undefined && date !== 'yesterday' && !isDay(date)) {
      throw new UsageError(`--date takes a day written YYYY-MM-DD, or yesterday, not "${date}"`);
    }
  } else if (date !== undefined || limit !== undefined) {
    throw new UsageError('--date and --limit go with --leaderboard');
  }
  return {
    ...common,
    newGame,
    ...(game === undefined ? {} : { game }),
    ...(daily ? { daily } : {}),
    ...(name === undefined ? {} : { name }),
    ...(values.leaderboard
      ? {
          leaderboard: {
            ...(date === undefined ? {} : { date }),
            limit: limit === undefined ? 20 : integer('limit', limit, 1, 1000),
          },
        }
      : {}),
  };
}

/** `npm run play`: the command line, then the session. Never throws; resolves to an exit status. */
export const playMain = (argv: string[], streams?: MainStreams, env?: NodeJS.ProcessEnv): Promise<number> =>
  cliMain('play', PLAY_USAGE, parsePlayArgs, runPlay, argv, streams, env);
