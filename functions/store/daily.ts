import { createHash } from 'node:crypto';
import { type CardCode, HOUSE_RULES, type Rules } from '../../domain/index.js';
import { PROFILE_KEY_PREFIX } from '../routes.js';
import { tableName } from './client.js';
import { getByKey, putIf, putIfAbsent } from './table.js';

/**
 * The daily deal's records beside the log, in the event table (item kinds in table.ts). They are
 * not read models: a deal, who started which game on it and a player's chosen name cannot be
 * rebuilt from the games' logs, so they live with the log.
 *
 * - `daily#<day>`: the day's deal, written once by a conditional put (the first writer wins; every
 *   other request reads the winner's), before its day (the schedule) or on its first request.
 * - `daily#first`: the first day that has a deal (leaderboards before it are 404).
 * - `daily#<day>#player#<sha256(sub)>`: a player's attempt on the day, claimed by a conditional put
 *   before its game is written, so a second call that day finds the same game.
 * - `profile#<sha256(sub)>`: the display name a player chose; the change stream takes it to the
 *   read models (the leaderboards show names).
 */
const hashed = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');
const dealKey = (day: string) => ({ pk: `daily#${day}`, sk: 0 });
const FIRST = { pk: 'daily#first', sk: 0 };
const attemptKey = (day: string, player: string) => ({ pk: `daily#${day}#player#${hashed(player)}`, sk: 0 });
const profileKey = (player: string) => ({ pk: `${PROFILE_KEY_PREFIX}${hashed(player)}`, sk: 0 });

export interface DailyDeal {
  readonly day: string;
  readonly deck: readonly CardCode[];
  readonly rules: Rules;
}

/** The day's deal, if it has been chosen. */
export async function dailyDeal(day: string): Promise<DailyDeal | undefined> {
  const item = await getByKey(tableName(), dealKey(day));
  return item && { day, deck: item.deck as CardCode[], rules: item.rules as Rules };
}

/**
 * Keeps `deck` as the day's deal unless one was kept first; the deal that stands is returned, so
 * two racing requests always agree. The first day with a deal is kept too.
 */
export async function keepDailyDeal(day: string, deck: readonly CardCode[], at: string): Promise<DailyDeal> {
  const deal = { day, deck, rules: HOUSE_RULES };
  if (!(await putIfAbsent(tableName(), { ...dealKey(day), deck, rules: HOUSE_RULES, at }))) {
    const kept = await dailyDeal(day);
    if (!kept) throw new Error(`the daily deal of ${day} vanished`);
    return kept;
  }
  await putIf(
    tableName(),
    { ...FIRST, firstDay: day },
    {
      ConditionExpression: 'attribute_not_exists(pk) OR firstDay > :day',
      ExpressionAttributeValues: { ':day': day },
    },
  );
  return deal;
}

/** The first day that had a daily deal; undefined before any. */
export async function firstDailyDay(): Promise<string | undefined> {
  return (await getByKey(tableName(), FIRST))?.firstDay as string | undefined;
}

/** A player's attempt on a day: the game it is, and what its deal needs to be written. */
export interface Attempt {
  readonly gameId: string;
  readonly tokenHash: string;
  readonly createdAt: string;
}

/** The player's attempt on the day, if they have started one. */
export async function attemptOf(day: string, player: string): Promise<Attempt | undefined> {
  const item = await getByKey(tableName(), attemptKey(day, player));
  return (
    item && {
      gameId: item.gameId as string,
      tokenHash: item.tokenHash as string,
      createdAt: item.createdAt as string,
    }
  );
}

/** Claims the player's attempt on the day; the attempt that stands (an earlier one, if any). */
export async function claimAttempt(day: string, player: string, attempt: Attempt): Promise<Attempt> {
  if (await putIfAbsent(tableName(), { ...attemptKey(day, player), ...attempt })) return attempt;
  const kept = await attemptOf(day, player);
  if (!kept) throw new Error('a daily attempt vanished');
  return kept;
}

/** The name a player chose to be shown under, and when; undefined before they chose one. */
export async function chosenName(player: string): Promise<{ name: string; at: string } | undefined> {
  const item = await getByKey(tableName(), profileKey(player));
  return item && { name: item.name as string, at: item.at as string };
}

/** Tries of `keepName` before it gives up, each after another rename landed first. */
const NAME_TRIES = 5;

/**
 * Keeps the name a player chose: the last one written stands (a name is not a log, and the
 * projector reads the latest one whenever it projects), and its time is strictly after that of the
 * name it replaces, even within one millisecond or on a clock behind: the leaderboards take a name
 * only when its time is later than the one they show, so two renames with one time would leave the
 * earlier name there. A conditional put on the name it read; another rename landing first, it reads
 * again. Resolves to the time kept; false when renames kept landing first.
 */
export async function keepName(player: string, name: string, now: string): Promise<string | false> {
  for (let tries = 0; tries < NAME_TRIES; tries++) {
    const kept = await chosenName(player);
    const at = kept && kept.at >= now ? new Date(Date.parse(kept.at) + 1).toISOString() : now;
    const condition = kept
      ? {
          ConditionExpression: '#at = :at',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': kept.at },
        }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    if (await putIf(tableName(), { ...profileKey(player), name, player, at }, condition)) return at;
  }
  return false;
}
