import { isDay } from './days.js';
import type { Foundation, Move, Source, Tableau, Target } from './types.js';

/** What a line typed at the play prompt asks for. */
export type Command =
  | { kind: 'move'; move: Move }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'resign' }
  | { kind: 'hint' }
  | { kind: 'autoplay' }
  | { kind: 'autocomplete' }
  | { kind: 'legal' }
  | { kind: 'help' }
  | { kind: 'board' }
  | { kind: 'stats' }
  | { kind: 'daily' }
  /** A day's leaderboard: a day written YYYY-MM-DD, `yesterday`, or today's when left out. */
  | { kind: 'leaderboard'; date?: string }
  | { kind: 'quit' }
  | { kind: 'error'; message: string };

export const HELP = `Commands:
  d               draw from the stock            r            recycle the waste into the stock
  7 3   t7 t3     move column 7's top card onto column 3
  7 3 2           move the top 2 cards of column 7 onto column 3 (also t7 t3 2)
  w 3   w f       waste to column 3 / to its foundation
  7 f             column 7's top card to its foundation (7 fh names the pile)
  fh 3            foundation (fc fd fh fs) back to column 3
  u  undo         y  redo              ?  list the legal moves
  hint            a good next move, and why (from what you can see)
  a   autoplay    every card that can safely go home goes there
  autocomplete    play a game that can surely be won to the end (every card face up)
  resign          end the game (the deal is revealed)
  b               redraw the board     h  this help     q  quit (the game can be resumed)
  :stats          your record (signed in with --player)
  :daily          today's daily deal: how many played and won, and your standing
  lb [DAY]        a day's leaderboard (lb, lb yesterday, lb 2026-05-14; also :leaderboard)
Without spaces works too: 73, w3, wf, 7f, fh3.`;

const WORDS: Record<string, Command> = {
  d: { kind: 'move', move: { type: 'draw' } },
  draw: { kind: 'move', move: { type: 'draw' } },
  r: { kind: 'move', move: { type: 'recycle' } },
  recycle: { kind: 'move', move: { type: 'recycle' } },
  u: { kind: 'undo' },
  undo: { kind: 'undo' },
  y: { kind: 'redo' },
  redo: { kind: 'redo' },
  resign: { kind: 'resign' },
  hint: { kind: 'hint' },
  a: { kind: 'autoplay' },
  auto: { kind: 'autoplay' },
  autoplay: { kind: 'autoplay' },
  autocomplete: { kind: 'autocomplete' },
  finish: { kind: 'autocomplete' },
  '?': { kind: 'legal' },
  moves: { kind: 'legal' },
  legal: { kind: 'legal' },
  h: { kind: 'help' },
  help: { kind: 'help' },
  b: { kind: 'board' },
  board: { kind: 'board' },
  stats: { kind: 'stats' },
  ':stats': { kind: 'stats' },
  daily: { kind: 'daily' },
  ':daily': { kind: 'daily' },
  q: { kind: 'quit' },
  quit: { kind: 'quit' },
  exit: { kind: 'quit' },
};

const error = (message: string): Command => ({ kind: 'error', message });

/** `7` or `t7` → `t7`. */
function tableau(token: string): Tableau | undefined {
  const match = /^t?([1-7])$/.exec(token);
  return match ? (`t${match[1]}` as Tableau) : undefined;
}

/** `fh` → `fH`. */
function foundation(token: string): Foundation | undefined {
  const match = /^f([cdhs])$/.exec(token);
  return match ? (`f${match[1]!.toUpperCase()}` as Foundation) : undefined;
}

function source(token: string): Source | undefined {
  if (token === 'w' || token === 'waste') return 'waste';
  return tableau(token) ?? foundation(token);
}

function target(token: string): Target | undefined {
  if (token === 'f' || token === 'foundation') return 'foundation';
  return tableau(token) ?? foundation(token);
}

/** `73` → `7 3`, `wf` → `w f`, `fh3` → `fh 3`, `t7t3` → `t7 t3`: one token, two piles. */
function split(token: string): string[] | undefined {
  const match = /^(t?[1-7]|w|f[cdhs])(t?[1-7]|f[cdhs]?)$/.exec(token);
  return match ? [match[1]!, match[2]!] : undefined;
}

/**
 * Reads one line typed at the prompt. Pure: the server decides whether a well-formed move is
 * legal; this only says what was asked for, or why the line means nothing.
 */
export function parseCommand(line: string): Command {
  const text = line.trim().toLowerCase();
  if (text === '') return { kind: 'board' };
  const word = WORDS[text];
  if (word) return word;
  const board = /^(?:lb|:?leaderboard)(?:\s+(\S+))?$/.exec(text);
  if (board) {
    const date = board[1];
    if (date === undefined || date === 'today') return { kind: 'leaderboard' };
    if (date === 'yesterday' || isDay(date)) return { kind: 'leaderboard', date };
    return error(`"${date}" is not a day: write it YYYY-MM-DD (such as 2026-05-14), or yesterday.`);
  }
  const tokens = text.split(/[\s,]+|->|→/).filter(Boolean);
  // A first token that names two piles (`73`, `wf`, `fh3`) is split; no single pile looks like that.
  const pair = tokens[0] === undefined ? undefined : split(tokens[0]);
  if (pair) tokens.splice(0, 1, ...pair);
  if (tokens.length < 2 || tokens.length > 3) {
    return error(`"${line.trim()}" is not a command: type h for help.`);
  }
  const [fromToken, toToken, countToken] = tokens as [string, string, string?];
  const from = source(fromToken);
  if (!from) return error(`"${fromToken}" is not a pile to move from: w, 1..7 (or t1..t7), fc fd fh fs.`);
  const to = target(toToken);
  if (!to) return error(`"${toToken}" is not a pile to move to: 1..7 (or t1..t7), f, fc fd fh fs.`);
  if (countToken === undefined) return { kind: 'move', move: { type: 'move', from, to } };
  if (!/^\d+$/.test(countToken)) return error(`"${countToken}" is not a number of cards.`);
  const count = Number(countToken);
  if (count < 1 || count > 13) return error(`A move takes 1 to 13 cards, not ${count}.`);
  return { kind: 'move', move: { type: 'move', from, to, count } };
}
