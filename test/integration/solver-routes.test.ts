import { describe, expect, it } from 'vitest';
import {
  type Command,
  checkHistory,
  deal,
  deckFromSeed,
  formatCard,
  HOUSE_RULES,
  parseDeck,
  rankOf,
  solve,
} from '../../domain/index.js';
import fixtures from '../fixtures/winning-lines.json' with { type: 'json' };
import { newGame, useLocalApi } from '../support/local.js';

const server = useLocalApi();

/** Positions of the face-up cards of a fresh deal, in the deck. */
const FACE_UP = [0, 7, 13, 18, 22, 25, 27];

describe('GET /games/{id}/hint', () => {
  it('suggests a legal move, needs the token while in play, and changes nothing', async () => {
    const { id, auth } = await newGame(server.api, { seed: 21 });
    const answer = await server.api.get(`/games/${id}/hint`, auth);
    expect(answer.status).toBe(200);
    expect(typeof answer.body.reason).toBe('string');
    const view = (await server.api.get(`/games/${id}`, auth)).body;
    if (answer.body.move) expect(view.legalMoves).toContainEqual(answer.body.move);
    expect(view.version).toBe(0);
    expect((await server.api.get(`/games/${id}/hint`)).status).toBe(401);
  });

  it('gives the same hint for two deals that look the same to the player', async () => {
    const deck = deckFromSeed(33).map(formatCard);
    const twin = [...deck];
    [twin[1], twin[2]] = [twin[2]!, twin[1]!]; // two face-down cards swapped
    [twin[40], twin[41]] = [twin[41]!, twin[40]!]; // and the stock reordered
    const a = await newGame(server.api, { deck });
    const b = await newGame(server.api, { deck: twin });
    expect(a.created.body.tableau).toEqual(b.created.body.tableau);
    const hintA = (await server.api.get(`/games/${a.id}/hint`, a.auth)).body;
    const hintB = (await server.api.get(`/games/${b.id}/hint`, b.auth)).body;
    expect(hintA).toEqual(hintB);
  });
});

describe('POST /games/{id}/autoplay', () => {
  it('appends safe moves to the foundations as ordinary events', async () => {
    let seed = 0;
    while (!FACE_UP.some((i) => rankOf(deckFromSeed(seed)[i]!) === 1)) seed++;
    const { id, auth } = await newGame(server.api, { seed });
    const played = await server.api.post(`/games/${id}/autoplay`, undefined, auth);
    expect(played.status).toBe(200);
    const home = Object.values(played.body.foundations).flat();
    expect(home.length).toBeGreaterThan(0);
    expect(played.body.version).toBe(home.length);
    const events = (await server.api.get(`/games/${id}/events`, auth)).body.events.slice(1);
    expect(events.every((event: any) => event.type === 'moved' && /^f[CDHS]$/.test(event.data.to))).toBe(
      true,
    );
    // Nothing left to do: the same view, nothing appended.
    const again = await server.api.post(`/games/${id}/autoplay`, undefined, auth);
    expect(again.body.version).toBe(played.body.version);
  });
});

describe('POST /games/{id}/autocomplete', () => {
  const line = fixtures.lines[0]!;
  const deck = parseDeck(line.deck) as number[];

  it('refuses while the finish cannot be proved from what the player knows', async () => {
    const { id, auth } = await newGame(server.api, { deck: line.deck });
    const answer = await server.api.post(`/games/${id}/autocomplete`, undefined, auth);
    expect(answer.status).toBe(422);
    expect(answer.body.type).toBe('/problems/not-winnable');
  });

  it('plays a game with every card known to the end', async () => {
    const moves = line.moves as Command[];
    // The first point of the known win where no card is face down and the stock's order was seen.
    const known = moves.findIndex((_, k) => {
      const { state } = checkHistory(deal(deck, null, HOUSE_RULES), moves.slice(0, k));
      const { board } = state;
      return (
        board.tableau.every((column) => column.hidden.length === 0) &&
        (board.stock.length === 0 || board.pass >= 2)
      );
    });
    expect(known).toBeGreaterThan(0);
    const { id, auth } = await newGame(server.api, { deck: line.deck });
    for (const move of moves.slice(0, known))
      expect((await server.api.post(`/games/${id}/moves`, move, auth)).status).toBe(200);
    const finished = await server.api.post(`/games/${id}/autocomplete`, undefined, auth);
    expect(finished.status).toBe(200);
    expect(finished.body.status).toBe('won');
    expect((await server.api.post(`/games/${id}/autocomplete`, undefined, auth)).body.rule).toBe('game-over');
  });
});

describe('GET /games/{id}/analysis', () => {
  const line = fixtures.lines[0]!;
  const play = async (id: string, auth: Record<string, string>, moves: readonly unknown[]) => {
    for (const move of moves)
      expect((await server.api.post(`/games/${id}/moves`, move, auth)).status).toBe(200);
  };
  const replay = (deck: unknown, moves: unknown) => server.api.post('/replays', { deck, moves });

  it('is refused while the game is in play, and public once it is over', async () => {
    const { id, auth } = await newGame(server.api, { deck: line.deck });
    const refused = await server.api.get(`/games/${id}/analysis`, auth);
    expect(refused.status).toBe(422);
    expect(refused.body.type).toBe('/problems/game-in-play');
    expect(JSON.stringify(refused.body)).not.toMatch(/"line"/);
    expect((await server.api.get(`/games/${id}/analysis`)).status).toBe(401);
    await server.api.post(`/games/${id}/resign`, undefined, auth);
    expect((await server.api.get(`/games/${id}/analysis`)).status).toBe(200);
  });

  it('on a won game: winnable, with a line that POST /replays plays to a win', async () => {
    const { id, auth } = await newGame(server.api, { deck: line.deck });
    await play(id, auth, line.moves);
    const answer = await server.api.get(`/games/${id}/analysis`);
    expect(answer.status).toBe(200);
    expect(answer.body.verdict).toBe('winnable');
    expect(answer.body.lastWinnableVersion).toBe(line.moves.length);
    const checked = await replay(line.deck, answer.body.line);
    expect(checked.status).toBe(200);
    expect(checked.body.won).toBe(true);
  });

  it('on a game resigned while winnable: the line from the deal wins, and the last version is before the resignation', async () => {
    const { id, auth } = await newGame(server.api, { deck: line.deck });
    await play(id, auth, line.moves.slice(0, 12));
    await server.api.post(`/games/${id}/undo`, undefined, auth);
    const resigned = await server.api.post(`/games/${id}/resign`, undefined, auth);
    const answer = await server.api.get(`/games/${id}/analysis`);
    expect(answer.body.verdict).toBe('winnable');
    expect(answer.body.lastWinnableVersion).toBe(resigned.body.version - 1);
    expect((await replay(line.deck, answer.body.line)).body.won).toBe(true);
  });

  it('on a deal proved lost: lost, with no line and no winnable version', async () => {
    // Seed 1's deal is lost under the house rules (the domain's tests prove it).
    const { id, auth } = await newGame(server.api, { seed: 1 });
    await server.api.post(`/games/${id}/moves`, { type: 'draw' }, auth);
    await server.api.post(`/games/${id}/resign`, undefined, auth);
    const answer = await server.api.get(`/games/${id}/analysis`);
    expect(answer.body).toEqual({ verdict: 'lost', line: null, lastWinnableVersion: null });
  });
});

describe('POST /games with winnable: true', () => {
  it('deals a seed the solver proves winnable', async () => {
    const { id, auth, created } = await newGame(server.api, { winnable: true });
    expect(created.status).toBe(201);
    const seed = (await server.api.post(`/games/${id}/resign`, undefined, auth)).body.seed as number;
    expect(solve(deckFromSeed(seed), HOUSE_RULES, { nodes: 200_000 }).result).toBe('won');
    expect((await server.api.post('/games', { winnable: true, seed: 1 })).status).toBe(400);
  });
});
