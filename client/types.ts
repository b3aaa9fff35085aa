/**
 * The shapes the HTTP API sends and accepts, written from its description (CONTRACT section 3 and
 * GET /openapi.json). The client knows the service only through these: it imports nothing from the
 * server's code.
 */

export type Suit = 'C' | 'D' | 'H' | 'S';
export type Tableau = 't1' | 't2' | 't3' | 't4' | 't5' | 't6' | 't7';
export type Foundation = 'fC' | 'fD' | 'fH' | 'fS';
export type Source = 'waste' | Tableau | Foundation;
export type Target = Tableau | Foundation | 'foundation';

export type Move =
  | { type: 'draw' }
  | { type: 'recycle' }
  | { type: 'move'; from: Source; to: Target; count?: number };

/** A step of a history for POST /replays: a move, or undo, redo, resign. */
export type HistoryStep = Move | { type: 'undo' | 'redo' | 'resign' };

export interface Rules {
  draw: 1 | 3;
  passes: number | null;
  foundationToTableau: boolean;
}

export interface Column {
  hidden: number;
  cards: string[];
  hiddenCards?: string[];
}

export interface View {
  id: string;
  version: number;
  status: 'playing' | 'won' | 'resigned';
  rules: Rules;
  stock: { count: number; cards?: string[] };
  waste: string[];
  foundations: Record<Suit, string[]>;
  tableau: Column[];
  pass: number;
  recyclesLeft: number | null;
  moves: number;
  score: { vegas: number; standard: number };
  canUndo: boolean;
  canRedo: boolean;
  legalMoves: Move[];
  deck?: string[];
  seed?: number;
}

export interface CreatedGame extends View {
  token: string;
}

export interface GameEvent {
  version: number;
  type: 'dealt' | 'drawn' | 'recycled' | 'moved' | 'undone' | 'redone' | 'resigned';
  schema?: number;
  at?: string;
  data: Record<string, unknown>;
}

export interface Frame {
  version: number;
  event: GameEvent;
  view: View;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  rule?: string;
  index?: number;
  currentVersion?: number;
  issues?: { path: string; message: string }[];
}

export interface NewGame {
  seed?: number;
  deck?: string[] | string;
  rules?: Partial<Rules>;
}
