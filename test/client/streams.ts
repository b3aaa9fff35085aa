import { PassThrough } from 'node:stream';

/** Input that holds the given lines, then ends; output collected as text: a session at the prompt. */
export function streams(lines: string[] = []) {
  const input = new PassThrough();
  input.end(lines.map((line) => `${line}\n`).join(''));
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { input, output, text: () => text };
}

/** A stand-in API's view of an empty table at version 0 in play, for sessions that need a game. */
export const emptyView = () => ({
  id: 'g1',
  version: 0,
  status: 'playing' as 'playing' | 'won' | 'resigned',
  rules: { draw: 3 as const, passes: 3, foundationToTableau: true },
  stock: { count: 0 },
  waste: [],
  foundations: { C: [], D: [], H: [], S: [] },
  tableau: Array.from({ length: 7 }, () => ({ hidden: 0, cards: [] })),
  pass: 1,
  recyclesLeft: 2,
  moves: 0,
  score: { vegas: -52, standard: 0 },
  canUndo: false,
  canRedo: false,
  legalMoves: [],
});
