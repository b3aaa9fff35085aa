import * as z from 'zod/mini';
import { EVENT_TYPES, RULE_NAMES } from '../domain/index.js';
import { CardCode, DestinationPile, HistoryStep, SourcePile } from './requestSchemas.js';

/**
 * The response schemas: described in /openapi.json and checked against real answers by the tests.
 * Handlers do not import this file, so a cold start does not build them.
 */
const Cards = z.array(CardCode);
export const PlayedMove = z.union([
  z.object({ type: z.literal('draw') }),
  z.object({ type: z.literal('recycle') }),
  z.object({ type: z.literal('move'), from: SourcePile, to: DestinationPile, count: z.int() }),
]);

const Rules = z.object({
  draw: z.union([z.literal(1), z.literal(3)]),
  passes: z.nullable(z.int()),
  foundationToTableau: z.boolean(),
});

export const RevealedCards = z.optional(Cards);
export const View = z.object({
  id: z.string(),
  version: z.int(),
  status: z.enum(['playing', 'won', 'resigned']),
  rules: Rules,
  stock: z.object({ count: z.int(), cards: RevealedCards }),
  waste: Cards,
  foundations: z.object({ C: Cards, D: Cards, H: Cards, S: Cards }),
  tableau: z.array(z.object({ hidden: z.int(), cards: Cards, hiddenCards: RevealedCards })),
  pass: z.int(),
  recyclesLeft: z.nullable(z.int()),
  moves: z.int(),
  score: z.object({ vegas: z.int(), standard: z.int() }),
  canUndo: z.boolean(),
  canRedo: z.boolean(),
  legalMoves: z.array(PlayedMove),
  deck: RevealedCards,
  seed: z.optional(z.nullable(z.int())),
  daily: z.optional(z.string()),
});

export const CreatedGame = z.extend(View, { token: z.string() });

export const Event = z.object({
  version: z.int(),
  type: z.enum(EVENT_TYPES),
  schema: z.int(),
  at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export const EventPage = z.object({ events: z.array(Event), next: z.nullable(z.int()) });
export const ReplayFrames = z.object({
  frames: z.array(z.object({ version: z.int(), event: Event, view: View })),
  next: z.nullable(z.int()),
});
export const ReplayResult = z.object({ won: z.boolean(), view: View });

export const ProblemDetails = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  currentVersion: z.optional(z.int()),
  rule: z.optional(z.enum(RULE_NAMES)),
  ruleText: z.optional(z.string()),
  index: z.optional(z.int()),
  move: z.optional(HistoryStep),
  issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  issueCount: z.optional(z.int()),
  limit: z.optional(z.int()),
});

export const Hint = z.object({ move: z.nullable(PlayedMove), reason: z.string() });

export const Analysis = z.object({
  verdict: z.enum(['winnable', 'lost', 'unknown']),
  line: z.nullable(z.array(PlayedMove)),
  lastWinnableVersion: z.union([z.int(), z.null(), z.literal('unknown')]),
});

export const GameSummary = z.object({
  id: z.string(),
  status: z.enum(['playing', 'won', 'resigned']),
  rules: Rules,
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.int(),
  moves: z.int(),
  score: z.object({ vegas: z.int(), standard: z.int() }),
  seed: z.optional(z.nullable(z.int())),
  daily: z.optional(z.string()),
});
export const MyGames = z.object({ games: z.array(GameSummary), next: z.nullable(z.string()) });
export const PlayerStats = z.object({
  started: z.int(),
  won: z.int(),
  resigned: z.int(),
  inPlay: z.int(),
  winRate: z.nullable(z.number()),
  currentStreak: z.int(),
  bestStreak: z.int(),
  bestVegas: z.nullable(z.int()),
  fewestMovesToWin: z.nullable(z.int()),
  asOf: z.nullable(z.string()),
  daily: z.object({ played: z.int(), won: z.int(), currentStreak: z.int(), bestStreak: z.int() }),
});

const DailyRules = Rules;
export const DailyStanding = z.object({
  gameId: z.string(),
  status: z.enum(['playing', 'won', 'resigned']),
  actions: z.int(),
  moves: z.int(),
  elapsedMs: z.int(),
  rank: z.nullable(z.int()),
});
export const Daily = z.object({
  date: z.string(),
  rules: DailyRules,
  players: z.int(),
  won: z.int(),
  me: z.nullable(DailyStanding),
});
export const LeaderboardEntry = z.object({
  rank: z.int(),
  player: z.string(),
  actions: z.int(),
  moves: z.int(),
  elapsedMs: z.int(),
  finishedAt: z.string(),
  gameId: z.nullable(z.string()),
});
export const Leaderboard = z.object({
  date: z.string(),
  players: z.int(),
  won: z.int(),
  entries: z.array(LeaderboardEntry),
  next: z.nullable(z.string()),
});
export const PlayerProfile = z.object({ name: z.nullable(z.string()), displayName: z.string() });
