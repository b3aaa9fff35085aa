import { dayIsOver, rankAt } from '../../domain/index.js';
import { now } from '../clock.js';
import { today } from '../dailyDay.js';
import { signedIn } from '../http/auth.js';
import { cursorOf, fromCursor } from '../http/cursor.js';
import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';
import { parseWith } from '../http/request.js';
import { json } from '../http/respond.js';
import { DailyPath, LeaderboardQuery } from '../requestSchemas.js';
import { firstDailyDay } from '../store/daily.js';
import { countsShowing, dayCounts, leaderboardPage } from '../store/dailyModels.js';

/**
 * Where a page of `day`'s leaderboard starts: after the index key `after`, with `count` entries
 * before it, the last ranked `rank` on `key`.
 */
interface Cursor {
  readonly day: string;
  readonly after: string;
  readonly count: number;
  readonly previous: { readonly key: string; readonly rank: number };
}

const encode = (cursor: Cursor) => cursorOf(JSON.stringify(cursor));
function decode(text: string, date: string): Cursor {
  try {
    const cursor = JSON.parse(fromCursor(text) ?? '') as Cursor;
    const { day, after, count, previous } = cursor;
    // As `next` writes it: a page of this day's, whose last entry's index key is its ranking and a
    // hash, and whose rank is at most the entries counted so far. (Not signed: see docs/api.md.)
    if (
      Object.keys(cursor).length === 4 &&
      day === date &&
      typeof after === 'string' &&
      Number.isInteger(count) &&
      count > 0 &&
      typeof previous?.key === 'string' &&
      Object.keys(previous).length === 2 &&
      /^#[\w-]{16}$/.test(after.slice(previous.key.length)) &&
      after.startsWith(previous.key) &&
      Number.isInteger(previous.rank) &&
      previous.rank >= 1 &&
      previous.rank <= count
    )
      return cursor;
  } catch {}
  throw badCursor();
}

const badCursor = () =>
  new Problem('malformed-request', "cursor must be the `next` of a previous page of this day's leaderboard.");

/** The first day with a daily deal, once known, never changes: a container asks once. */
let first: string | undefined;

/**
 * GET /daily/{date}/leaderboard?limit=N&cursor=C (public): a day's won games, ranked by fewest
 * actions, then the shortest time from the first action to the winning one, then the earliest
 * finish; equal on all three share a rank. A page is one Query of the leaderboard's index. Game ids
 * (and with them the replays) show once the day is over. A day after today, or before the first
 * daily deal, is 404. Every day has its deal (the schedule prepares it ahead, or the day's first
 * game deals it), so today's leaderboard is there, empty, before either has happened.
 */
export const handler = httpHandler('leaderboard', async (request) => {
  const { date } = parseWith(DailyPath, request.pathParameters, 'path');
  const { limit, cursor } = parseWith(LeaderboardQuery, request.query, 'query');
  await signedIn(request);
  const day = today();
  if (date < day) first ??= await firstDailyDay();
  if (date > day || (date < day && (first === undefined || date < first))) {
    throw new Problem(
      'not-found',
      date > day
        ? `There is no daily deal of ${date} yet: today is ${day} (UTC).`
        : `There is no daily deal of ${date}: ${first === undefined ? 'there was none before today' : `the first was on ${first}`}.`,
    );
  }
  const from = cursor === undefined ? undefined : decode(cursor, date);
  const [counts, page] = await Promise.all([
    dayCounts(date),
    leaderboardPage(date, { limit, after: from?.after }),
  ]);
  const over = dayIsOver(date, now());
  let previous = from?.previous;
  const entries = page.rows.map((row, i) => {
    const rank = rankAt((from?.count ?? 0) + i + 1, row.rankKey, previous);
    previous = { key: row.rankKey, rank };
    return {
      rank,
      player: row.name,
      actions: row.actions,
      moves: row.moves,
      elapsedMs: row.elapsedMs,
      finishedAt: row.finishedAt!,
      gameId: over ? row.gameId : null,
    };
  });
  const next =
    page.last === undefined || previous === undefined
      ? null
      : encode({ day: date, after: page.last, count: (from?.count ?? 0) + entries.length, previous });
  return json(200, {
    date,
    ...countsShowing(counts, { won: (from?.count ?? 0) + entries.length }),
    entries,
    next,
  });
});
