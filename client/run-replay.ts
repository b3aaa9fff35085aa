import { readFile, stat } from 'node:fs/promises';
import { type Api, ApiError } from './api.js';
import { lineReader, type Streams } from './io.js';
import { cliMain, errorLine, type MainStreams, refusal, session } from './main.js';
import { COMMON_OPTIONS, type CommonOptions, commonOptions, integer, parse, UsageError } from './options.js';
import { describeEvent, renderBoard, withSymbols } from './render.js';
import type { Frame, GameEvent, HistoryStep, Move, Rules } from './types.js';

/** Frames 0..last of one game, fetched as they are asked for. */
export interface FrameSource {
  /** The last version (the game's current one). */
  last: number;
  /** Where the frames come from, for the title line. */
  title: string;
  /** How the game ended (`over` when the frames do not say how); undefined while it is in play. */
  ended?: 'won' | 'resigned' | 'over';
  frame(version: number): Promise<Frame>;
}

/** Frames per GET /games/{id}/replay response (the server's cap). */
const PAGE = 200;

/**
 * A stored game's frames, from GET /games/{id}/replay, a page of 200 at a time. A finished game is
 * public; a game in play needs its token.
 */
export async function apiFrames(api: Api, id: string): Promise<FrameSource> {
  let view: Awaited<ReturnType<Api['getGame']>>;
  try {
    view = await api.getGame(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // The API says only that the game needs a token: in play, or a daily game of a day not over.
      throw new UsageError(
        `game ${id} is still in play, or a daily game whose day is not over (00:00 UTC): until then only its player replays it, signed in as they played it (--player NAME) or with its token (--token T)`,
      );
    }
    throw error;
  }
  const pages = new Map<number, Promise<Frame[]>>();
  return {
    last: view.version,
    title: `game ${id} (${view.status})`,
    ...(view.status === 'playing' ? {} : { ended: view.status }),
    async frame(version) {
      const start = version - (version % PAGE);
      let page = pages.get(start);
      if (!page) {
        page = api
          .replayPage(id, start, Math.min(start + PAGE - 1, view.version))
          .then((answer) => answer.frames);
        pages.set(start, page);
        page.catch(() => pages.delete(start));
      }
      const frame = (await page).find((candidate) => candidate.version === version);
      if (!frame) throw new Error(`the server sent no frame for version ${version}`);
      return frame;
    },
  };
}

/** The history step an event records (the deal records none). */
export function stepOf(event: GameEvent): HistoryStep | undefined {
  const data = event.data as { from?: string; to?: string; count?: number; move?: Move };
  switch (event.type) {
    case 'drawn':
      return { type: 'draw' };
    case 'recycled':
      return { type: 'recycle' };
    case 'moved':
      return { type: 'move', from: data.from, to: data.to, count: data.count ?? 1 } as Move;
    case 'undone':
      return { type: 'undo' };
    case 'redone':
      return { type: 'redo' };
    case 'resigned':
      return { type: 'resign' };
    default:
      return undefined;
  }
}

/**
 * Frames rebuilt from an exported event log (the JSON of GET /games/{id}/events): the deal (deck and
 * rules, in the `dealt` event of a finished game) and the first k actions go to POST /replays, whose
 * final view is frame k. One request a frame, made when the frame is shown; nothing is stored.
 */
export function fileFrames(api: Api, text: string, name: string, warn: (line: string) => void): FrameSource {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${name} is not JSON: export a game with GET /games/{id}/events`);
  }
  const body = parsed as { events?: unknown; next?: unknown; status?: unknown; detail?: unknown };
  // What the API answered instead of the log (a 401 while a daily game's day lasts, say).
  if (typeof body?.status === 'number' && typeof body.detail === 'string' && !('events' in body)) {
    throw new UsageError(
      `${name} holds the API's refusal, not a game's events (${body.status}: ${withSymbols(body.detail)})`,
    );
  }
  const events = (Array.isArray(parsed) ? parsed : body.events) as GameEvent[] | undefined;
  if (!Array.isArray(events) || events.length === 0) {
    throw new UsageError(`${name} holds no events: expected { "events": [...] } from GET /games/{id}/events`);
  }
  events.forEach((event, index) => {
    if (event?.version !== index || typeof event.type !== 'string') {
      throw new UsageError(`${name}: the events must run from version 0 without a gap (at index ${index})`);
    }
    // An event of no kind the game has would replay as a step that does nothing.
    if (index > 0 && stepOf(event) === undefined) {
      throw new UsageError(`${name}: event ${index} is of no kind a game has ("${event.type}")`);
    }
  });
  const deal = events[0]!;
  const data = deal.data as { deck?: string[]; seed?: number | null; rules?: Rules; daily?: unknown };
  if (deal.type !== 'dealt') throw new UsageError(`${name}: the first event must be the deal`);
  if (!Array.isArray(data.deck)) {
    throw new UsageError(
      typeof data.daily === 'string'
        ? `${name} hides the deal: it is the daily deal of ${data.daily}, kept secret until that day is over (00:00 UTC), even once the game is. Replay the game by id with --token, or export it again after the day`
        : `${name} hides the deal (it was exported while the game was in play): replay the game by id with --token, or export it once it is over`,
    );
  }
  if (typeof body.next === 'number') {
    warn(
      `note: ${name} stops at version ${events.length - 1}; the log goes on (the next page: ?after=${body.next}). Export it whole with ?limit=1000 and join the pages.`,
    );
  }
  const steps = events.slice(1).map(stepOf);
  // The version of each step POST /replays is sent, which names a refused one by its index.
  const versions = steps.flatMap((step, i) => (step === undefined ? [] : [i + 1]));
  const cache = new Map<number, Promise<Frame>>();
  return {
    last: events.length - 1,
    // Its deal is shown, so the game is over: by a resignation, else by a win, when the log is whole.
    ended: events.at(-1)!.type === 'resigned' ? 'resigned' : typeof body.next === 'number' ? 'over' : 'won',
    title: `${name}${typeof data.seed === 'number' ? ` (seed ${data.seed})` : ''}`,
    frame(version) {
      let frame = cache.get(version);
      if (!frame) {
        const moves = steps.slice(0, version).filter((step): step is HistoryStep => step !== undefined);
        frame = api
          .checkReplay({ deck: data.deck!, ...(data.rules ? { rules: data.rules } : {}), moves })
          // POST /replays names its view "replay": the board is titled with the file instead.
          .then(({ view }) => ({ version, event: events[version]!, view: { ...view, id: name } }))
          .catch((error: unknown) => {
            const index = error instanceof ApiError ? error.problem.index : undefined;
            if (error instanceof ApiError && error.status === 422 && typeof index === 'number') {
              const bad = versions[index]!;
              throw new UsageError(
                `${name}: event ${bad} (${describeEvent(events[bad]!)}) cannot be played there: ${withSymbols(error.message)} No frame from version ${bad} on can be shown.`,
              );
            }
            throw error;
          });
        cache.set(version, frame);
        frame.catch(() => cache.delete(version));
      }
      return frame;
    },
  };
}

export interface ReplayConfig extends Streams, Partial<CommonOptions> {
  /** A game id, or the path of an exported event log. */
  source: string;
  /** Print this one frame. */
  at?: number;
  /** Print every frame. */
  all?: boolean;
  errors?: NodeJS.WritableStream;
  api?: Api;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Replays a game: one frame (`at`), every frame (`all`), or frame by frame at a prompt (n / enter
 * next, p previous, j N jump, q quit). Resolves to an exit status.
 */
export async function runReplay(config: ReplayConfig): Promise<number> {
  const { print, fail, color, api } = session(config);

  let source: FrameSource;
  try {
    if (config.player) await api.signIn(config.player);
    if (await isFile(config.source)) {
      source = fileFrames(api, await readFile(config.source, 'utf8'), config.source, fail);
    } else if (/^[A-Za-z0-9-]{1,64}$/.test(config.source) && !/\.json$/i.test(config.source)) {
      source = await apiFrames(api, config.source);
    } else {
      throw new UsageError(`${config.source}: no such file, and not a game id`);
    }
    if (config.at !== undefined && config.at > source.last) {
      throw new UsageError(
        `--at ${config.at} is past the end: ${source.title} has versions 0 to ${source.last}`,
      );
    }
  } catch (error) {
    fail(error instanceof UsageError ? refusal('replay', error) : errorLine(error));
    return error instanceof UsageError ? 2 : 1;
  }

  const show = async (version: number) => {
    const frame = await source.frame(version);
    print(`── ${version}/${source.last} · ${describeEvent(frame.event, frame.view, color)} ──`);
    print(
      renderBoard(frame.view, { color, undoKeys: false, ...(source.ended ? { ended: source.ended } : {}) }),
    );
  };

  try {
    if (config.at !== undefined) {
      await show(config.at);
      return 0;
    }
    if (config.all) {
      print(`Replay of ${source.title}: versions 0 to ${source.last}`);
      for (let version = 0; version <= source.last; version++) {
        print();
        await show(version);
      }
      return 0;
    }
  } catch (error) {
    fail(errorLine(error));
    return 1;
  }

  print(
    `Replay of ${source.title}: versions 0 to ${source.last}. n or enter: next · p: previous · j N: jump · f / l: first / last · q: quit`,
  );
  const reader = lineReader(config);
  let version = 0;
  let shown = -1;
  try {
    for (;;) {
      if (version !== shown) {
        try {
          print();
          await show(version);
          shown = version;
        } catch (error) {
          print(errorLine(error));
          if (shown < 0) return 1;
          version = shown;
        }
      }
      const line = await reader.ask(`[${version}/${source.last}] > `);
      if (line === undefined) break;
      const text = line.trim().toLowerCase();
      const jump = /^(?:j|jump|g|go)?\s*(\d+)$/.exec(text);
      const badJump = !jump && /^(?:j|jump|g|go)(?:\s|$)/.test(text);
      if (text === '' || text === 'n' || text === 'next') {
        if (version < source.last) version++;
        else print('That was the last frame (q to quit, p to go back).');
      } else if (text === 'p' || text === 'prev' || text === 'previous') {
        if (version > 0) version--;
        else print('That was the first frame.');
      } else if (jump) {
        const to = Number(jump[1]);
        if (to > source.last) print(`The last version is ${source.last}.`);
        else version = to;
      } else if (text === 'f' || text === 'first') {
        version = 0;
      } else if (text === 'l' || text === 'last') {
        version = source.last;
      } else if (text === 'q' || text === 'quit' || text === 'exit') {
        break;
      } else if (badJump) {
        print(`j takes a version: a whole number from 0 to ${source.last} (j 12).`);
      } else {
        print('n or enter: next · p: previous · j N: jump to version N · f / l: first / last · q: quit');
      }
    }
  } finally {
    reader.close();
  }
  return 0;
}

export const REPLAY_USAGE = `Usage: npm run replay -- <game id | exported events file> [options]   (or: klondike replay ...)

Steps through a game frame by frame: n or enter next, p previous, j N jump, f / l first / last, q quit.

  --at N               print the frame at version N and stop
  --all                print every frame and stop
  --token T            the token of a game still in play, or of a daily game until its day is over
                       (other finished games are public), or a sign-in token of its player
  --player NAME        sign in at the local runtime's development issuer: your own games replay
                       while in play, and your daily game before its day is over
  --url URL            the API (default $KLONDIKE_URL, else http://127.0.0.1:$PORT,
                       the port of npm start, 3000 when PORT is not set)
  --timeout SECONDS    per request (default 10)
  --color, --no-color  force colour on or off

A file is the JSON of GET /games/{id}/events of a finished game (a game in play hides its deal).
Its frames are rebuilt with POST /replays: the deal and the first N actions give frame N.
`;

export function parseReplayArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { help: true } | ({ help?: false; source: string; at?: number; all?: boolean } & CommonOptions) {
  const { values, positionals } = parse(
    argv,
    { ...COMMON_OPTIONS, at: { type: 'string' }, all: { type: 'boolean' } },
    true,
  );
  if (values.help) return { help: true };
  if (positionals.length !== 1) throw new UsageError('give one game id or one exported file');
  if (values.at !== undefined && values.all) throw new UsageError('give --at or --all, not both');
  const common = commonOptions(values, env);
  return {
    ...common,
    source: positionals[0]!,
    ...(typeof values.at === 'string' ? { at: integer('at', values.at, 0, Number.MAX_SAFE_INTEGER) } : {}),
    ...(values.all ? { all: true } : {}),
  };
}

/** `npm run replay`: the command line, then the replay. Never throws; resolves to an exit status. */
export const replayMain = (argv: string[], streams?: MainStreams, env?: NodeJS.ProcessEnv): Promise<number> =>
  cliMain('replay', REPLAY_USAGE, parseReplayArgs, runReplay, argv, streams, env);
