import { describe, expect, it } from 'vitest';
import {
  cardText,
  describeEvent,
  moveCommand,
  renderAnalysis,
  renderBoard,
  renderHint,
  renderLegalMoves,
  renderStats,
  wantsColor,
} from '../../client/render.js';
import { whyNoneHome } from '../../client/run-play.js';
import { runReplay } from '../../client/run-replay.js';
import type { GameEvent, View } from '../../client/types.js';
import { streams } from './streams.js';

/** Seed 42 after `7 1`, `2 f`, `d`, `d`, as the API sent it. */
const view: View = {
  id: 'game-42',
  version: 4,
  status: 'playing',
  rules: { draw: 3, passes: 3, foundationToTableau: true },
  stock: { count: 18 },
  waste: ['KC', 'TH', '8C', '3H', 'JS', '7D'],
  foundations: { C: ['AC'], D: [], H: [], S: [] },
  tableau: [
    { hidden: 0, cards: ['4D', '3S'] },
    { hidden: 0, cards: ['JC'] },
    { hidden: 2, cards: ['TC'] },
    { hidden: 3, cards: ['9H'] },
    { hidden: 4, cards: ['3D'] },
    { hidden: 5, cards: ['2C'] },
    { hidden: 5, cards: ['2S'] },
  ],
  pass: 1,
  recyclesLeft: 2,
  moves: 4,
  score: { vegas: -47, standard: 20 },
  canUndo: true,
  canRedo: false,
  legalMoves: [
    { type: 'draw' },
    { type: 'move', from: 't4', to: 't3', count: 1 },
    { type: 'move', from: 't6', to: 't5', count: 1 },
    { type: 'move', from: 't6', to: 'fC', count: 1 },
    { type: 'move', from: 't7', to: 't5', count: 1 },
  ],
};

/** ESC made visible, so the snapshot shows the colour codes. */
const visible = (text: string) => text.replaceAll('\x1b', '<ESC>');

describe('renderBoard', () => {
  it('draws the table in plain text', () => {
    expect(renderBoard(view, { color: false })).toMatchInlineSnapshot(`
      "Klondike  game game-42  version 4  playing
      draw 3 · pass 1 of 3 (2 recycles left) · 4 moves · score vegas -47 standard 20
      u undo

       stock     waste              fC   fD   fH   fS
       ▒▒▒ 18     3♥  J♠  7♦ +3     A♣    ♦    ♥    ♠

        1     2     3     4     5     6     7
        4♦    J♣   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒
        3♠         ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒
                   10♣   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒
                          9♥   ▒▒▒   ▒▒▒   ▒▒▒
                                3♦   ▒▒▒   ▒▒▒
                                      2♣    2♠"
    `);
  });

  it('paints red and black faces and blue backs when colour is on', () => {
    const board = renderBoard(view, { color: true });
    expect(visible(board)).toMatchInlineSnapshot(`
      "<ESC>[1mKlondike<ESC>[0m  game game-42  version 4  playing
      draw 3 · pass 1 of 3 (2 recycles left) · 4 moves · score vegas -47 standard 20
      <ESC>[2mu undo<ESC>[0m

      <ESC>[2m stock     waste              fC   fD   fH   fS<ESC>[0m
       <ESC>[34;44m▒▒▒<ESC>[0m 18    <ESC>[31;47m 3♥<ESC>[0m <ESC>[30;47m J♠<ESC>[0m <ESC>[31;47m 7♦<ESC>[0m +3    <ESC>[30;47m A♣<ESC>[0m  <ESC>[2m  ♦<ESC>[0m  <ESC>[2m  ♥<ESC>[0m  <ESC>[2m  ♠<ESC>[0m

      <ESC>[2m  1     2     3     4     5     6     7<ESC>[0m
       <ESC>[31;47m 4♦<ESC>[0m   <ESC>[30;47m J♣<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m
       <ESC>[30;47m 3♠<ESC>[0m         <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m
                   <ESC>[30;47m10♣<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m
                         <ESC>[31;47m 9♥<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m
                               <ESC>[31;47m 3♦<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m   <ESC>[34;44m▒▒▒<ESC>[0m
                                     <ESC>[30;47m 2♣<ESC>[0m   <ESC>[30;47m 2♠<ESC>[0m"
    `);
    expect(visible(board).replace(/<ESC>\[[0-9;]*m/g, '')).toBe(renderBoard(view, { color: false }));
  });

  it('shows an empty stock, waste and column, unlimited passes and a finished game', () => {
    const board = renderBoard(
      {
        ...view,
        status: 'won',
        rules: { ...view.rules, passes: null },
        recyclesLeft: null,
        stock: { count: 0 },
        waste: [],
        tableau: view.tableau.map((column, i) => (i === 1 ? { hidden: 0, cards: [] } : column)),
        canUndo: false,
        canRedo: true,
      },
      { color: false },
    );
    expect(board).toContain('version 4  WON');
    expect(board).toContain('pass 1 (unlimited)');
    expect(board).toContain('y redo');
    expect(board.split('\n')[5]).toBe('  ·  0      ·                 A♣    ♦    ♥    ♠');
    expect(board.split('\n')[8]).toBe('  4♦    ·    ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒   ▒▒▒');
  });

  it('marks a stock spent with no pass left, as the web table does', () => {
    const spent = renderBoard({ ...view, stock: { count: 0 }, pass: 3, recyclesLeft: 0 }, { color: false });
    expect(spent.split('\n')[5]).toMatch(/^ {2}✕ {2}0 /);
    const turnable = renderBoard(
      { ...view, stock: { count: 0 }, pass: 2, recyclesLeft: 1 },
      { color: false },
    );
    expect(turnable.split('\n')[5]).toMatch(/^ {2}· {2}0 /);
  });
});

/** Seed 42 after `7 1`, `d`, `d`, then resigned, as the API sent it: the deal is revealed. */
const resigned: View = {
  id: 'game-42',
  version: 4,
  status: 'resigned',
  rules: { draw: 3, passes: 3, foundationToTableau: true },
  stock: {
    count: 18,
    // Bottom to top: the next card drawn (4H) is the last.
    cards: [
      'TS',
      '6H',
      '5C',
      '8S',
      '4S',
      'QS',
      'JH',
      '5D',
      '2D',
      '5H',
      '9D',
      'AH',
      'AD',
      '9C',
      'KS',
      'KD',
      '6D',
      '4H',
    ],
  },
  waste: ['KC', 'TH', '8C', '3H', 'JS', '7D'],
  foundations: { C: [], D: [], H: [], S: [] },
  tableau: [
    { hidden: 0, cards: ['4D', '3S'], hiddenCards: [] },
    { hidden: 1, cards: ['AC'], hiddenCards: ['JC'] },
    { hidden: 2, cards: ['TC'], hiddenCards: ['KH', '6S'] },
    { hidden: 3, cards: ['9H'], hiddenCards: ['QC', '9S', '8H'] },
    { hidden: 4, cards: ['3D'], hiddenCards: ['4C', 'TD', '2H', '5S'] },
    { hidden: 5, cards: ['2C'], hiddenCards: ['7S', 'JD', '3C', '7C', 'AS'] },
    { hidden: 5, cards: ['2S'], hiddenCards: ['7H', '6C', 'QH', '8D', 'QD'] },
  ],
  pass: 1,
  recyclesLeft: 2,
  moves: 3,
  score: { vegas: -52, standard: 5 },
  canUndo: false,
  canRedo: false,
  legalMoves: [],
  seed: 42,
};

describe('renderBoard of a finished game', () => {
  it('draws the face-down cards by their faces, marked, and lists the stock in drawing order and the waste', () => {
    expect(renderBoard(resigned, { color: false })).toMatchInlineSnapshot(`
      "Klondike  game game-42  version 4  resigned
      draw 3 · pass 1 of 3 (2 recycles left) · 3 moves · score vegas -52 standard 5
      [ ]: a face-down card, shown because the game is over

       stock     waste              fC   fD   fH   fS
      [ 4♥] 18    3♥  J♠  7♦ +3      ♣    ♦    ♥    ♠

       stock, next card drawn first:
      [ 4♥] [ 6♦] [ K♦] [ K♠] [ 9♣] [ A♦] [ A♥]
      [ 9♦] [ 5♥] [ 2♦] [ 5♦] [ J♥] [ Q♠] [ 4♠]
      [ 8♠] [ 5♣] [ 6♥] [10♠]

       waste, bottom to top:
        K♣   10♥    8♣    3♥    J♠    7♦

        1     2     3     4     5     6     7
        4♦  [ J♣] [ K♥] [ Q♣] [ 4♣] [ 7♠] [ 7♥]
        3♠    A♣  [ 6♠] [ 9♠] [10♦] [ J♦] [ 6♣]
                   10♣  [ 8♥] [ 2♥] [ 3♣] [ Q♥]
                          9♥  [ 5♠] [ 7♣] [ 8♦]
                                3♦  [ A♠] [ Q♦]
                                      2♣    2♠"
    `);
  });

  it('shows every card of the deal, and no card back', () => {
    const board = renderBoard(resigned, { color: false });
    expect(board).not.toContain('▒');
    const faces = board.match(/(?:10|[2-9AJQK])[♣♦♥♠]/g) ?? [];
    // Shown twice: the stock's next card (on its pile and in the list), the waste's top three.
    expect(faces).toHaveLength(52 + 1 + 3);
    expect(new Set(faces).size).toBe(52);
    // Each face-down card is bracketed; the face-up ones are not.
    expect(board.match(/\[[ 1][^\]]{2}\]/g)).toHaveLength(1 + 18 + 20);
  });

  it('keeps the marks in colour, and the same text under the colours', () => {
    const board = renderBoard(resigned, { color: true });
    expect(visible(board)).toContain('<ESC>[34m[<ESC>[0m<ESC>[30;47m J♣<ESC>[0m<ESC>[34m]<ESC>[0m');
    expect(visible(board).replace(/<ESC>\[[0-9;]*m/g, '')).toBe(renderBoard(resigned, { color: false }));
  });

  it('draws an emptied stock as before, and backs where a view reveals nothing', () => {
    const emptied = renderBoard({ ...resigned, stock: { count: 0, cards: [] } }, { color: false });
    expect(emptied).not.toContain('stock, next card drawn first');
    expect(emptied.split('\n')[5]).toBe('  ·  0      3♥  J♠  7♦ +3      ♣    ♦    ♥    ♠');
    expect(renderBoard(view, { color: false })).not.toContain('face-down card, shown');
  });
});

describe("a replay's frame of a finished game", () => {
  const event = { version: 3, type: 'drawn', schema: 1, at: '2026-01-01T00:00:00.000Z', data: {} };
  const api = (status: View['status']) =>
    ({
      url: 'http://127.0.0.1:3000',
      getGame: async () => ({ ...resigned, status }),
      replayPage: async () => ({
        frames: [0, 1, 2, 3, 4].map((version) => ({
          version,
          event: { ...event, version },
          view: { ...resigned, version, status: version === 4 ? status : 'playing' },
        })),
        next: null,
      }),
    }) as any;
  const header = async (status: View['status'], at: number) => {
    const io = streams();
    expect(await runReplay({ ...io, api: api(status), source: 'game-42', at, color: false })).toBe(0);
    return io.text().split('\n')[1];
  };

  it('says a step in play is in play at that step, and how the game ended, above its revealed cards', async () => {
    expect(await header('resigned', 3)).toBe(
      'Klondike  game game-42  version 3  in play at this step (the game was resigned later)',
    );
    expect(await header('won', 3)).toBe(
      'Klondike  game game-42  version 3  in play at this step (the game was won later)',
    );
    expect(await header('resigned', 4)).toBe('Klondike  game game-42  version 4  resigned');
    // A game still in play (replayed with its token) is just in play.
    expect(renderBoard(view, { color: false }).split('\n')[0]).toBe(
      'Klondike  game game-42  version 4  playing',
    );
  });
});

describe("a resigned game's analysis in words", () => {
  const over = { ...resigned, version: 6 };
  it('says whether the deal could be won, and until which version, with the command that shows it', () => {
    const analysis = (verdict: 'winnable' | 'lost' | 'unknown', last: number | null | 'unknown') =>
      ({ verdict, line: null, lastWinnableVersion: last }) as any;
    expect(renderAnalysis(analysis('winnable', 2), over)).toBe(
      'This deal could be won. It could still be won until version 2 (npm run replay -- game-42 --at 2); after it, no line could.',
    );
    // The resignation is an event of its own: winnable just before it, it still was when resigned.
    expect(renderAnalysis(analysis('winnable', 5), over, ' --url http://x')).toBe(
      'This deal could be won, and still could when you resigned.',
    );
    expect(renderAnalysis(analysis('lost', null), over)).toBe(
      'No line could win this deal, whatever was played.',
    );
    expect(renderAnalysis(analysis('unknown', 'unknown'), over)).toBe(
      'Whether this deal could be won was not worked out in time.',
    );
  });
});

describe('cards, moves and events in words', () => {
  it('writes faces with the ten as 10', () => {
    expect(['AS', 'TH', 'KC', '7D'].map(cardText)).toEqual([' A♠', '10♥', ' K♣', ' 7♦']);
  });

  it('lists the legal moves with the command that plays each', () => {
    expect(renderLegalMoves(view)).toMatchInlineSnapshot(`
      "  d        draw
        4 3      t4 → t3: 9♥
        6 5      t6 → t5: 2♣
        6 f      t6 → fC: 2♣
        7 5      t7 → t5: 2♠"
    `);
    expect(moveCommand({ type: 'move', from: 'waste', to: 'foundation' })).toBe('w f');
    expect(moveCommand({ type: 'move', from: 'fH', to: 't3', count: 1 })).toBe('fh 3');
    expect(moveCommand({ type: 'move', from: 't7', to: 't3', count: 2 })).toBe('7 3 2');
    expect(moveCommand({ type: 'recycle' })).toBe('r');
  });

  it('describes events, with the cards moved when the view after is known', () => {
    const event = (version: number, type: GameEvent['type'], data: GameEvent['data']): GameEvent => ({
      version,
      type,
      schema: 1,
      at: '2026-01-01T00:00:00.000Z',
      data,
    });
    expect(describeEvent(event(0, 'dealt', { seed: 42 }))).toBe('dealt (seed 42)');
    expect(describeEvent(event(1, 'moved', { from: 't7', to: 't1', count: 1 }), view)).toBe('t7 → t1: 3♠');
    expect(describeEvent(event(4, 'drawn', {}), view)).toBe('draw (waste top: 7♦)');
    expect(describeEvent(event(5, 'undone', { move: { type: 'draw' } }))).toBe('undo (draw)');
  });

  it('colours only a terminal, and never with NO_COLOR', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('a hint', () => {
  it("names the move by the terminal's command and piles, and says its odds plainly", () => {
    const move = { type: 'move', from: 't5', to: 'fC', count: 1 } as const;
    expect(
      renderHint({ move, reason: 'Move AC from t5 to fC: it is never needed in the tableau again.' }),
    ).toBe(
      'hint: 5 f  (Move A♣ from column 5 to the ♣ foundation: it is never needed in the tableau again.)',
    );
    const sampled = (odds: string) =>
      renderHint({
        move: { type: 'move', from: 'waste', to: 't3', count: 1 },
        reason: `Move 8D from waste to t3: it plays the waste's top card. Of 48 ways the unseen cards may lie, ${odds} of them.`,
      });
    expect(sampled('30 can be won from here (2 undecided), and this move loses 1')).toBe(
      "hint: w 3  (Move 8♦ from the waste to column 3: it plays the waste's top card. Of 48 ways the unseen cards may lie, 30 can be won from here and 2 could not be worked out in time; after this move, 29 still can.)",
    );
    expect(sampled('14 can be won from here, and this move loses none')).toContain(
      'Of 48 ways the unseen cards may lie, 14 can be won from here; after this move, all 14 still can.',
    );
    expect(sampled('1 can be won from here, and this move loses none')).toContain(
      '1 can be won from here; after this move, it still can.',
    );
    expect(
      renderHint({
        move: { type: 'draw' },
        reason:
          'Draw: it brings a card of the stock to the top of the waste (9 moves), to play it to t3. Of 48 ways the unseen cards may lie, 5 can be won from here, and this move loses none of them.',
      }),
    ).toBe(
      'hint: d  (Draw: it brings a card of the stock to the top of the waste in 9 moves, this one the first, to play it to column 3. Of 48 ways the unseen cards may lie, 5 can be won from here; after this move, all 5 still can.)',
    );
    expect(renderHint({ move: null, reason: 'No move is left: only undo can help.' })).toBe(
      'hint: No move is left: only undo can help.',
    );
  });
});

describe('autoplay that sent nothing home', () => {
  it('says which card could go, why autoplay left it, and the command that sends it', () => {
    expect(whyNoneHome(view)).toBe(
      '2♣ could go home, but autoplay leaves it while a card in play may still need it: `6 f` sends it',
    );
    // The waste's top before the last pass at draw 3: autoplay leaves the waste alone (nothing
    // needs an ace: it is not "a card in play may need it").
    const ace: View = {
      ...view,
      waste: [...view.waste, 'AD'],
      legalMoves: [{ type: 'draw' }, { type: 'move', from: 'waste', to: 'fD', count: 1 }],
    };
    expect(whyNoneHome(ace)).toBe(
      'A♦ could go home, but autoplay leaves the waste alone before the last pass (taking a card out changes what later passes deal): `w f` sends it',
    );
    expect(whyNoneHome({ ...view, legalMoves: [{ type: 'draw' }] })).toBe('no card can go home just now');
  });
});

describe("a player's record", () => {
  const stats = {
    started: 7,
    won: 3,
    resigned: 2,
    inPlay: 2,
    winRate: 0.6,
    currentStreak: 2,
    bestStreak: 3,
    bestVegas: 18,
    fewestMovesToWin: 95,
    asOf: '2026-12-05T13:21:42.235Z',
    daily: { played: 4, won: 2, currentStreak: 1, bestStreak: 2 },
  };

  it('says what each streak counts, and when it was counted, in UTC as the terminal writes times', () => {
    expect(renderStats('tess', stats)).toMatchInlineSnapshot(`
      "tess: 7 games dealt, 3 won, 2 resigned, 2 in play (60% won)
        wins in a row: 2 now, best 3; best Vegas 18; fewest moves to win 95
        daily deals: 4 played, 2 won; days in a row with a daily win: 1 now, best 2
        counted up to 2026-12-05 13:21:42 UTC"
    `);
    expect(renderStats('tess', { ...stats, asOf: null, winRate: null })).not.toContain('counted up to');
  });
});
