import {
  type Board,
  type Card,
  type Command,
  decide,
  evolve,
  type GameEvent,
  type GameState,
  HOUSE_RULES,
  isViolation,
  OPENING_SCORE,
  parseCard,
  type Rules,
  type Violation,
} from '../../domain/index.js';

export const cards = (codes: string): Card[] =>
  codes
    .split(/\s+/)
    .filter(Boolean)
    .map((code) => {
      const card = parseCard(code);
      if (card === undefined) throw new Error(`bad card ${code}`);
      return card;
    });

export interface BoardSpec {
  /** Top of the stock first (the next card drawn first). */
  stock?: string;
  waste?: string;
  foundations?: Partial<Record<'C' | 'D' | 'H' | 'S', string>>;
  /** Per column: face-down cards, then face-up cards (bottom to top). */
  tableau?: ([string, string] | [])[];
  pass?: number;
}

/** A board built by hand, for rule tests. Cards not placed anywhere are simply absent. */
export function board(spec: BoardSpec): Board {
  const tableau = Array.from({ length: 7 }, (_, i) => {
    const [hidden = '', up = ''] = spec.tableau?.[i] ?? [];
    return { hidden: cards(hidden), up: cards(up) };
  });
  return {
    stock: cards(spec.stock ?? '').reverse(),
    waste: cards(spec.waste ?? ''),
    foundations: (['C', 'D', 'H', 'S'] as const).map((suit) => cards(spec.foundations?.[suit] ?? '')),
    tableau,
    pass: spec.pass ?? 1,
  };
}

/** A game in play on a hand-made board. */
export function game(spec: BoardSpec, rules: Partial<Rules> = {}): GameState {
  return {
    version: 0,
    deal: { deck: [], seed: null, rules: { ...HOUSE_RULES, ...rules } },
    board: board(spec),
    status: 'playing',
    score: OPENING_SCORE,
    done: null,
    undone: null,
  };
}

/** Decides and applies one command; throws if it breaks a rule. */
export function act(state: GameState, command: Command): GameState {
  const event = decide(state, command);
  if (isViolation(event)) throw new Error(`${JSON.stringify(command)} refused: ${event.rule}`);
  return evolve(state, event);
}

export const play = (state: GameState, ...commands: Command[]): GameState => commands.reduce(act, state);

/** The rule a command breaks, or undefined when it is legal. */
export function refusal(state: GameState, command: Command): Violation['rule'] | undefined {
  const event = decide(state, command);
  return isViolation(event) ? event.rule : undefined;
}

export const eventOf = (state: GameState, command: Command): GameEvent => {
  const event = decide(state, command);
  if (isViolation(event)) throw new Error(event.rule);
  return event;
};
