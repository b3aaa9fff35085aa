import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allCards,
  type Command,
  deal,
  decide,
  deckFromSeed,
  evolve,
  fold,
  formatCard,
  fromSnapshot,
  type GameEvent,
  type GameState,
  type GameView,
  HOUSE_RULES,
  isViolation,
  legalMoves,
  orderedDeck,
  type PlayedMove,
  type Rules,
  type SourceName,
  stateAt,
  toSnapshot,
  toView,
} from '../../domain/index.js';

const seed = fc.integer({ min: 0, max: 0xffffffff });
const rules = fc.record<Rules>({
  draw: fc.constantFrom(1 as const, 3 as const),
  passes: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 4 })),
  foundationToTableau: fc.boolean(),
});
/** Choices of what to do next: an index into the legal moves, or undo/redo. */
const choices = fc.array(
  fc.oneof({ weight: 8, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom('undo', 'redo') }),
  {
    minLength: 1,
    maxLength: 150,
  },
);

/** Plays a random game: each choice picks a legal move (or undo/redo when allowed). */
function randomGame(gameSeed: number, gameRules: Rules, picks: readonly (number | string)[]) {
  const events: GameEvent[] = [deal(deckFromSeed(gameSeed), gameSeed, gameRules)];
  const states: GameState[] = [fold(events)];
  for (const pick of picks) {
    const state = states[states.length - 1]!;
    if (state.status !== 'playing') break;
    let command: Command | undefined;
    if (typeof pick === 'string') command = { type: pick as 'undo' | 'redo' };
    else {
      const moves = legalMoves(state);
      command = moves[pick % Math.max(1, moves.length)];
    }
    if (!command) break;
    const event = decide(state, command);
    if (isViolation(event)) continue;
    events.push(event);
    states.push(evolve(state, event));
  }
  return { events, states };
}

/**
 * Every legal move, read off the view with the rules of docs/rules.md and nothing of the engine: card
 * codes parsed here, every source, target and count tried. The engine's list must equal it.
 */
function rulebookMoves(view: GameView): PlayedMove[] {
  const rank = (code: string) => 'A23456789TJQK'.indexOf(code[0]!) + 1;
  const red = (code: string) => code[1] === 'D' || code[1] === 'H';
  const fits = (card: string, top: string | undefined) =>
    top === undefined ? rank(card) === 13 : rank(top) === rank(card) + 1 && red(top) !== red(card);
  const moves: PlayedMove[] = [];
  if (view.stock.count > 0) moves.push({ type: 'draw' });
  const passesLeft = view.rules.passes === null || view.pass < view.rules.passes;
  if (view.stock.count === 0 && view.waste.length > 0 && passesLeft) moves.push({ type: 'recycle' });
  const columnNames = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'] as const;
  const columns = columnNames.map((name, i) => ({ name, cards: view.tableau[i]!.cards }));
  const foundations = (['C', 'D', 'H', 'S'] as const).map((suit) => ({ name: `f${suit}` as const, suit }));
  const sources: { name: SourceName; cards: readonly string[] }[] = [
    { name: 'waste', cards: view.waste.slice(-1) },
    ...columns,
    ...(view.rules.foundationToTableau
      ? foundations.map((f) => ({ name: f.name, cards: view.foundations[f.suit].slice(-1) }))
      : []),
  ];
  for (const source of sources) {
    for (let count = 1; count <= source.cards.length; count++) {
      const run = source.cards.slice(source.cards.length - count);
      if (run.some((card, i) => i > 0 && !fits(card, run[i - 1]))) continue;
      for (const target of columns) {
        if (target.name !== source.name && fits(run[0]!, target.cards.at(-1))) {
          moves.push({ type: 'move', from: source.name, to: target.name, count });
        }
      }
      if (count !== 1 || source.name.startsWith('f')) continue;
      for (const target of foundations) {
        const home = view.foundations[target.suit];
        if (run[0]![1] === target.suit && rank(run[0]!) === home.length + 1) {
          moves.push({ type: 'move', from: source.name, to: target.name, count });
        }
      }
    }
  }
  return moves;
}

const sorted = (cards: number[]) => [...cards].sort((a, b) => a - b);
const runs = { numRuns: 60 };

describe('invariants under random legal play', () => {
  it('52 distinct cards, always', () => {
    fc.assert(
      fc.property(seed, rules, choices, (s, r, picks) => {
        for (const state of randomGame(s, r, picks).states)
          expect(sorted(allCards(state.board))).toEqual(orderedDeck());
      }),
      runs,
    );
  });

  it('every listed legal move is accepted by decide', () => {
    fc.assert(
      fc.property(seed, rules, choices, (s, r, picks) => {
        for (const state of randomGame(s, r, picks).states.slice(-5)) {
          for (const move of legalMoves(state)) expect(isViolation(decide(state, move))).toBe(false);
        }
      }),
      runs,
    );
  });

  it('the legal moves are exactly those an independent reading of the rules allows', () => {
    let multiCard = 0;
    fc.assert(
      fc.property(seed, rules, choices, (s, r, picks) => {
        for (const state of randomGame(s, r, picks).states) {
          const expected = rulebookMoves(toView(state, 'g'));
          multiCard += expected.filter((move) => move.type === 'move' && move.count > 1).length;
          const listed = legalMoves(state);
          expect(new Set(listed.map((move) => JSON.stringify(move)))).toEqual(
            new Set(expected.map((move) => JSON.stringify(move))),
          );
          expect(listed).toHaveLength(expected.length);
        }
      }),
      runs,
    );
    // The random games do reach runs of several cards that may move (not only single cards).
    expect(multiCard).toBeGreaterThan(0);
  });

  it('undo restores exactly the previous state; redo restores exactly the undone one', () => {
    fc.assert(
      fc.property(seed, rules, choices, (s, r, picks) => {
        const { events, states } = randomGame(s, r, picks);
        for (let i = 1; i < states.length; i++) {
          const [before, after] = [states[i - 1]!, states[i]!];
          if (after.status !== 'playing' || !['drawn', 'recycled', 'moved'].includes(events[i]!.type))
            continue;
          const undone = evolve(after, decide(after, { type: 'undo' }) as GameEvent);
          expect(undone.board).toEqual(before.board);
          expect(undone.score).toEqual(before.score);
          expect(undone.done).toBe(before.done);
          const redone = evolve(undone, decide(undone, { type: 'redo' }) as GameEvent);
          expect(redone.board).toEqual(after.board);
          expect(redone.score).toEqual(after.score);
        }
      }),
      runs,
    );
  });

  it('fold is deterministic, and the state at N is the fold of the first N + 1 events', () => {
    fc.assert(
      fc.property(seed, rules, choices, (s, r, picks) => {
        const { events, states } = randomGame(s, r, picks);
        const replayed = JSON.parse(JSON.stringify(events)) as GameEvent[];
        expect(fold(replayed)).toEqual(fold(events));
        const n = Math.floor(states.length / 2);
        expect(stateAt(events, n)).toEqual(states[n]);
        expect(fold(events)).toEqual(states[states.length - 1]);
      }),
      runs,
    );
  });

  it('the view of a game in play never contains a face-down card or the stock', () => {
    fc.assert(
      fc.property(seed, rules, choices, (s, r, picks) => {
        for (const state of randomGame(s, r, picks).states) {
          if (state.status !== 'playing') continue;
          const text = JSON.stringify(toView(state, 'g'));
          const hidden = [...state.board.stock, ...state.board.tableau.flatMap((column) => column.hidden)];
          for (const card of hidden) expect(text).not.toContain(`"${formatCard(card)}"`);
          expect(text).not.toMatch(/"deck"|"seed"|hiddenCards/);
        }
      }),
      runs,
    );
  });
});

describe('snapshots', () => {
  it('hold the whole state: undo and redo from a snapshot go exactly as from the log', () => {
    fc.assert(
      fc.property(
        seed,
        rules,
        choices,
        fc.integer({ min: 1, max: 6 }),
        (gameSeed, gameRules, picks, undos) => {
          let state = randomGame(gameSeed, gameRules, picks).states.at(-1)!;
          for (let i = 0; i < undos; i++) {
            const undone = decide(state, { type: 'undo' });
            if (isViolation(undone)) break;
            state = evolve(state, undone);
          }
          // As the store keeps it: JSON, then read back.
          let restored = fromSnapshot(JSON.parse(JSON.stringify(toSnapshot(state))));
          expect(restored).toEqual(state);
          for (const type of ['redo', 'redo', 'redo', 'undo', 'redo', 'redo', 'redo'] as const) {
            const fromLog = decide(state, { type });
            const fromSnap = decide(restored, { type });
            expect(fromSnap).toEqual(fromLog);
            if (isViolation(fromLog) || isViolation(fromSnap)) continue;
            state = evolve(state, fromLog);
            restored = evolve(restored, fromSnap);
            expect(toView(restored, 'g')).toEqual(toView(state, 'g'));
          }
          expect(restored).toEqual(state);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('passes through the deck', () => {
  const drawThrough = (state: GameState) => {
    const seen: string[] = [];
    let current = state;
    while (current.board.stock.length > 0) {
      current = evolve(current, decide(current, { type: 'draw' }) as GameEvent);
      seen.push(toView(current, 'g').waste.at(-1)!);
    }
    return { seen, state: current };
  };

  it('recycling preserves order: deal through, recycle, deal through again gives the same sequence', () => {
    fc.assert(
      fc.property(seed, fc.constantFrom(1 as const, 3 as const), (s, draw) => {
        const start = fold([deal(deckFromSeed(s), s, { ...HOUSE_RULES, draw })]);
        const first = drawThrough(start);
        const recycled = evolve(first.state, decide(first.state, { type: 'recycle' }) as GameEvent);
        expect(drawThrough(recycled).seen).toEqual(first.seen);
      }),
      runs,
    );
  });

  it('a fourth pass is refused, and the last draw of a pass may be 1 or 2 cards', () => {
    fc.assert(
      fc.property(seed, fc.integer({ min: 0, max: 23 }), (s, played) => {
        // A stock of 24, 23 or 22 cards (the others set aside), so the last draw of a pass is 3, 2 or 1.
        const deck = deckFromSeed(s);
        let state = fold([deal(deck, s, HOUSE_RULES)]);
        const stockSize = 24 - (played % 3);
        state = { ...state, board: { ...state.board, stock: state.board.stock.slice(24 - stockSize) } };
        for (let pass = 1; pass <= 3; pass++) {
          let lastDraw = 0;
          while (state.board.stock.length > 0) {
            const before = state.board.waste.length;
            state = evolve(state, decide(state, { type: 'draw' }) as GameEvent);
            lastDraw = state.board.waste.length - before;
          }
          expect(lastDraw).toBe(stockSize % 3 === 0 ? 3 : stockSize % 3);
          const recycle = decide(state, { type: 'recycle' });
          if (pass < 3) state = evolve(state, recycle as GameEvent);
          else expect(isViolation(recycle) && recycle.rule).toBe('pass-limit');
        }
      }),
      runs,
    );
  });
});
