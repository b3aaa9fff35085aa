import * as z from 'zod/mini';
import {
  DESTINATION_NAMES,
  isDay,
  MAX_ACTIONS,
  MAX_SEED,
  PILE_NAMES,
  TARGET_NAMES,
} from '../domain/index.js';

/**
 * The request and response schemas: one set, used to validate requests and to generate
 * /openapi.json (functions/openapi.ts adds names and descriptions), so the description cannot drift
 * from the checks. zod/mini: the same checks as zod with a fraction of its load time, which every
 * Lambda cold start pays.
 */
export const CardCode = z
  .string()
  .check(z.regex(/^[A2-9TJQK][CDHS]$/, 'a card is a rank A 2..9 T J Q K then a suit C D H S'));

export const SourcePile = z.enum(PILE_NAMES);
export const TargetPile = z.enum(TARGET_NAMES);
export const DestinationPile = z.enum(DESTINATION_NAMES);
export const MoveCount = z.int().check(z.minimum(1), z.maximum(13));

export const Move = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('draw') }),
  z.strictObject({ type: z.literal('recycle') }),
  z.strictObject({ type: z.literal('move'), from: SourcePile, to: TargetPile, count: z.optional(MoveCount) }),
]);

/** Moves plus undo, redo and resign: what a history for POST /replays may hold. */
export const HistoryStep = z.union([Move, z.strictObject({ type: z.enum(['undo', 'redo', 'resign']) })]);

export const Rules = z.strictObject({
  draw: z.optional(z.union([z.literal(1), z.literal(3)])),
  // Any whole number from 1 (docs/api.md's words): z.int() is a safe integer, the only bound.
  passes: z.optional(z.nullable(z.int().check(z.minimum(1)))),
  foundationToTableau: z.optional(z.boolean()),
});

export const Seed = z.int().check(z.minimum(0), z.maximum(MAX_SEED));
/** A deck as its 52 card codes (each once: the rules refuse a repeated card, the document says so). */
export const DeckCards = z.array(CardCode).check(z.length(52));
export const Deck = z.union([
  DeckCards,
  z.string().check(z.regex(/^\d{156}$/, 'a deal string is 156 digits')),
]);

const dealFields = { seed: z.optional(Seed), deck: z.optional(Deck), rules: z.optional(Rules) };
const oneDeal = z.refine<{ seed?: unknown; deck?: unknown }>(
  (value) => value.seed === undefined || value.deck === undefined,
  {
    message: 'give a seed or a deck, not both',
    path: ['deck'],
  },
);

export const CreateGame = z.strictObject({ ...dealFields, winnable: z.optional(z.boolean()) }).check(oneDeal);

export const ReplayRequest = z
  .strictObject({ ...dealFields, moves: z.array(HistoryStep).check(z.maxLength(20_000)) })
  .check(
    z.refine((value) => value.seed !== undefined || value.deck !== undefined, {
      message: 'give a seed or a deck',
      path: ['seed'],
    }),
    oneDeal,
  );

/** Bodies of undo, redo and resign: nothing, or an empty object. */
export const EmptyBody = z.strictObject({});

/**
 * A query parameter that means a number: a plain decimal integer in its documented range. An empty
 * value, a `+`, a sign on zero (`-0`, `-01`), a fraction, an exponent or `0x...` is a 400, not a
 * guess.
 */
const wholeNumber = (min: number, max: number) =>
  z.pipe(
    z.pipe(
      z.string().check(z.regex(/^(?:-(?!0)\d{1,16}|\d{1,16})$/, 'must be a plain decimal integer')),
      z.transform(Number),
    ),
    z.int().check(z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`)),
  );
/** What a game id may be: an id that is not one names no game (404, never a 400). */
export const GAME_ID = /^[A-Za-z0-9-]{1,64}$/;
export const ViewQuery = z.object({ at: z.optional(wholeNumber(0, MAX_ACTIONS)) });
/** A page size: its default when the query has none (the document shows it). */
const pageSize = (most: number, byDefault: number) => z._default(wholeNumber(1, most), byDefault);
export const EventsQuery = z.object({
  after: z._default(wholeNumber(-1, MAX_ACTIONS), -1),
  limit: pageSize(1000, 100),
});
/** `to` defaults to the game's latest version, which no schema knows. */
export const ReplayQuery = z.object({
  from: z._default(wholeNumber(0, MAX_ACTIONS), 0),
  to: z.optional(wholeNumber(0, MAX_ACTIONS)),
});

/** GET /me/games: a status to keep, a page size, and the cursor a previous page gave as `next`. */
export const MyGamesQuery = z.object({
  status: z.optional(z.enum(['playing', 'won', 'resigned'])),
  limit: pageSize(100, 20),
  cursor: z.optional(z.string().check(z.regex(/^[\w-]{1,400}$/, 'must be the `next` of a previous page'))),
});

/** A UTC day as a path parameter: `YYYY-MM-DD`, a real date. */
export const DailyPath = z.object({
  date: z.string().check(z.refine(isDay, 'must be a day written YYYY-MM-DD (UTC), such as 2026-12-01')),
});

/** GET /daily/{date}/leaderboard: a page size and the cursor a previous page gave as `next`. */
export const LeaderboardQuery = z.object({
  limit: pageSize(100, 20),
  cursor: z.optional(z.string().check(z.regex(/^[\w-]{1,400}$/, 'must be the `next` of a previous page'))),
});

/** PUT /me/profile: the name to be shown (checked further by functions/players.ts). */
export const Profile = z.strictObject({ name: z.string().check(z.maxLength(200)) });
