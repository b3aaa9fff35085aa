/**
 * The shapes the HTTP API sends and accepts, named as the clients use them. Every one comes from
 * client/openapi.d.ts, generated from GET /openapi.json (`npm run api-types`), so a change of the
 * API shows up here as a type error. The clients import nothing from the server's code.
 */
import type { components } from './openapi.js';

type Schemas = components['schemas'];

export type View = Schemas['View'];
export type CreatedGame = Schemas['CreatedGame'];
export type Rules = View['rules'];
export type Column = View['tableau'][number];
export type Suit = keyof View['foundations'];
export type Source = Schemas['SourcePile'];
export type Target = Schemas['TargetPile'];
export type Tableau = Extract<Source, `t${number}`>;
export type Foundation = Extract<Source, `f${string}`>;
/** A move as a client sends it (`count` may be left out). */
export type Move = Schemas['Move'];
/** A move as the API lists and records it: concrete piles, explicit count. */
export type PlayedMove = Schemas['PlayedMove'];
/** A step of a history for POST /replays: a move, or undo, redo, resign. */
export type HistoryStep = Schemas['HistoryStep'];
export type GameEvent = Schemas['Event'];
export type Frame = Schemas['ReplayFrames']['frames'][number];
export type Problem = Schemas['Problem'];
export type Hint = Schemas['Hint'];
/** A finished game's analysis: GET /games/{id}/analysis. */
export type Analysis = Schemas['Analysis'];
/** The body of POST /games. */
export type NewGame = Schemas['CreateGame'];
/** A signed-in player's record: GET /me/stats. */
export type PlayerStats = Schemas['PlayerStats'];
/** One of a signed-in player's games, as GET /me/games lists it. */
export type GameSummary = Schemas['GameSummary'];
export type GameStatus = GameSummary['status'];
/** A page of GET /me/games. */
export type MyGames = Schemas['MyGames'];
/** Today's daily deal and the day's standing: GET /daily. */
export type Daily = Schemas['Daily'];
/** A signed-in player's game on today's deal, and their rank once it is won. */
export type DailyStanding = Schemas['DailyStanding'];
/** A page of a day's leaderboard: GET /daily/{date}/leaderboard. */
export type Leaderboard = Schemas['Leaderboard'];
export type LeaderboardEntry = Schemas['LeaderboardEntry'];
/** The name a player chose and the name the leaderboards show: GET and PUT /me/profile. */
export type PlayerProfile = Schemas['PlayerProfile'];
