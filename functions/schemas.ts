import { z } from 'zod';
import { EVENT_TYPES, MAX_SEED, PILE_NAMES, RULES } from '../domain/index.js';

/**
 * The request and response schemas: one set, used to validate requests and to generate
 * /openapi.json, so the description cannot drift from the checks.
 */
export const CardCode = z
  .string()
  .regex(/^[A2-9TJQK][CDHS]$/)
  .meta({
    id: 'CardCode',
    description: 'Rank A 2..9 T J Q K, then suit C D H S: TH is the ten of hearts.',
    example: 'TH',
  });

const tableauNames = PILE_NAMES.filter((name) => name !== 'waste') as [string, ...string[]];
export const SourcePile = z
  .enum(PILE_NAMES)
  .meta({ id: 'SourcePile', description: 'waste, t1..t7, or a foundation fC fD fH fS' });
export const TargetPile = z.enum([...tableauNames, 'foundation'] as [string, ...string[]]).meta({
  id: 'TargetPile',
  description: "t1..t7, fC fD fH fS, or 'foundation': the foundation of the moving card's suit",
});

export const Move = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('draw') }),
    z.strictObject({ type: z.literal('recycle') }),
    z.strictObject({
      type: z.literal('move'),
      from: SourcePile,
      to: TargetPile,
      count: z
        .int()
        .min(1)
        .max(13)
        .optional()
        .meta({ description: 'Cards taken from the top of a tableau column (default 1)' }),
    }),
  ])
  .meta({ id: 'Move' });

/** Moves plus undo, redo and resign: what a history for POST /replays may hold. */
export const HistoryStep = z
  .union([Move, z.strictObject({ type: z.enum(['undo', 'redo', 'resign']) })])
  .meta({ id: 'HistoryStep' });

export const Rules = z
  .strictObject({
    draw: z
      .union([z.literal(1), z.literal(3)])
      .optional()
      .meta({ description: 'Cards per draw (default 3)' }),
    passes: z
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .optional()
      .meta({ description: 'Passes through the deck in all (default 3); null is unlimited' }),
    foundationToTableau: z
      .boolean()
      .optional()
      .meta({ description: 'May a foundation card come back to the tableau (default true)' }),
  })
  .meta({ id: 'Rules' });

export const Seed = z.int().min(0).max(MAX_SEED).meta({ description: 'A numbered deal: 0..4294967295' });
export const Deck = z
  .union([z.array(CardCode).length(52), z.string().regex(/^\d{156}$/, 'a deal string is 156 digits')])
  .meta({
    id: 'Deck',
    description: '52 card codes in dealing order, or the 156-digit ShootMe Klondike-Solver string',
  });

const dealFields = { seed: Seed.optional(), deck: Deck.optional(), rules: Rules.optional() };
const oneDeal = (value: { seed?: unknown; deck?: unknown }) =>
  value.seed === undefined || value.deck === undefined;
const oneDealMessage = { message: 'give a seed or a deck, not both', path: ['deck'] };

export const CreateGame = z
  .strictObject({
    ...dealFields,
    winnable: z
      .boolean()
      .optional()
      .meta({ description: 'Deal a game the solver proved winnable under the rules' }),
  })
  .refine(oneDeal, oneDealMessage)
  .meta({ id: 'CreateGame' });

export const ReplayRequest = z
  .strictObject({ ...dealFields, moves: z.array(HistoryStep).max(20_000) })
  .refine((value) => value.seed !== undefined || value.deck !== undefined, {
    message: 'give a seed or a deck',
    path: ['seed'],
  })
  .refine(oneDeal, oneDealMessage)
  .meta({ id: 'ReplayRequest' });

/** Bodies of undo, redo and resign: nothing, or an empty object. */
export const EmptyBody = z.strictObject({});

const version = z.coerce.number().pipe(z.int().min(0));
export const GameId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);
export const GamePath = z.object({ id: GameId });
export const ViewQuery = z.object({ at: version.optional() });
export const EventsQuery = z.object({
  after: z.coerce.number().pipe(z.int().min(-1)).optional(),
  limit: z.coerce.number().pipe(z.int().min(1).max(1000)).optional(),
});
export const ReplayQuery = z.object({ from: version.optional(), to: version.optional() });

const Cards = z.array(CardCode);
export const PlayedMove = z
  .union([
    z.object({ type: z.literal('draw') }),
    z.object({ type: z.literal('recycle') }),
    z.object({ type: z.literal('move'), from: SourcePile, to: TargetPile, count: z.int() }),
  ])
  .meta({ id: 'PlayedMove' });

export const View = z
  .object({
    id: z.string(),
    version: z.int(),
    status: z.enum(['playing', 'won', 'resigned']),
    rules: z.object({
      draw: z.union([z.literal(1), z.literal(3)]),
      passes: z.int().nullable(),
      foundationToTableau: z.boolean(),
    }),
    stock: z.object({
      count: z.int(),
      cards: Cards.optional().meta({ description: 'Finished games only: top first' }),
    }),
    waste: Cards,
    foundations: z.object({ C: Cards, D: Cards, H: Cards, S: Cards }),
    tableau: z.array(
      z.object({
        hidden: z.int(),
        cards: Cards,
        hiddenCards: Cards.optional().meta({ description: 'Finished games only' }),
      }),
    ),
    pass: z.int(),
    recyclesLeft: z.int().nullable(),
    moves: z.int(),
    score: z.object({ vegas: z.int(), standard: z.int() }),
    canUndo: z.boolean(),
    canRedo: z.boolean(),
    legalMoves: z.array(PlayedMove),
    deck: Cards.optional().meta({ description: 'Finished games only' }),
    seed: z.int().optional().meta({ description: 'Finished games dealt from a seed only' }),
  })
  .meta({ id: 'View', description: 'A game as a player sees it; piles bottom to top' });

export const CreatedGame = View.extend({
  token: z.string().meta({ description: 'Bearer token for this game; shown once' }),
}).meta({ id: 'CreatedGame' });

export const Event = z
  .object({
    version: z.int(),
    type: z.enum(EVENT_TYPES as [string, ...string[]]),
    schema: z.int(),
    at: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });
export const EventPage = z
  .object({ events: z.array(Event), next: z.int().nullable() })
  .meta({ id: 'EventPage' });
export const ReplayFrames = z
  .object({
    frames: z.array(z.object({ version: z.int(), event: Event, view: View })),
    next: z.int().nullable(),
  })
  .meta({ id: 'ReplayFrames' });
export const ReplayResult = z.object({ won: z.boolean(), view: View }).meta({ id: 'ReplayResult' });

export const ProblemDetails = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    currentVersion: z.int().optional(),
    rule: z.enum(Object.keys(RULES) as [string, ...string[]]).optional(),
    index: z.int().optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });
