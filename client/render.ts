import { clock, rankedClocks } from './clock.js';
import type {
  Analysis,
  Daily,
  GameEvent,
  Hint,
  Leaderboard,
  Move,
  PlayerStats,
  Suit,
  View,
} from './types.js';
import { verdictWords } from './verdict.js';

/**
 * Pure text rendering of the API's views, moves and events. Nothing here does I/O: the same view
 * always gives the same string, with ANSI colour only when asked for.
 */
export interface RenderOptions {
  /** ANSI colours: cards as white faces with red or black pips, backs in blue. */
  color?: boolean;
  /** The play client's undo and redo keys under the status line (default true; a replay has its own). */
  undoKeys?: boolean;
  /**
   * A replay's frame: how the game ended (`over` when the frames do not say how), which a frame
   * still in play shows beside its own status.
   */
  ended?: 'won' | 'resigned' | 'over';
}

export const SUIT_SYMBOLS: Record<Suit, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };
const SUITS: Suit[] = ['C', 'D', 'H', 'S'];

const ESC = '\x1b[';
const RESET = `${ESC}0m`;
const paint = (color: boolean, codes: string, text: string) =>
  color ? `${ESC}${codes}m${text}${RESET}` : text;

/** Should output to this stream be coloured? Honours NO_COLOR (https://no-color.org) and FORCE_COLOR. */
export function wantsColor(stream: unknown, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return Boolean((stream as { isTTY?: boolean } | undefined)?.isTTY);
}

const isRed = (code: string) => code.endsWith('D') || code.endsWith('H');

/** A card's face, 3 columns wide: ` 4♦`, `10♥`, ` K♣`. */
export function cardText(code: string): string {
  const rank = code[0] === 'T' ? '10' : (code[0] ?? '?');
  const suit = SUIT_SYMBOLS[code[1] as Suit] ?? '?';
  return (rank + suit).padStart(3);
}

/** The API's card codes (`TC`) in a message, as the board draws them (`10♣`). */
export const withSymbols = (text: string): string =>
  text.replace(/(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])/g, (code) => cardText(code).trim());

/** A card's face, coloured when asked: red or black on white. */
export function card(code: string, color = false): string {
  return paint(color, isRed(code) ? '31;47' : '30;47', cardText(code));
}

/** A card's face without padding, for running text: `10♥`, `K♣`. */
export function cardShort(code: string, color = false): string {
  return paint(color, isRed(code) ? '31;47' : '30;47', cardText(code).trim());
}

const BACK = '▒▒▒';
const back = (color: boolean) => paint(color, '34;44', BACK);
/**
 * A face-down card that a finished game's view reveals (hiddenCards, stock.cards): its face in
 * brackets, 5 columns wide, so it reads as face down yet shows which card it is. The brackets sit
 * in the blanks on either side of a 3-column cell, which keeps every pile on its column.
 */
const revealed = (code: string, color: boolean) =>
  `${paint(color, '34', '[')}${card(code, color)}${paint(color, '34', ']')}`;
/** The same 5 columns for any other cell. */
const padded = (cell: string) => ` ${cell} `;
/** Cards a line where a whole pile is listed: seven, on the grid of the columns below. */
const CARDS_A_LINE = 7;
const EMPTY = ' · ';
const empty = (color: boolean) => paint(color, '2', EMPTY);
/** A stock spent with no pass left: nothing will come from it again (the web table's ✕). */
const spent = (color: boolean) => paint(color, '2', EMPTY.replace('·', '✕'));
const dim = (color: boolean, text: string) => paint(color, '2', text);
const bold = (color: boolean, text: string) => paint(color, '1', text);

/** A foundation's place when empty: its suit, dimmed. */
const foundationSlot = (suit: Suit, color: boolean) => paint(color, '2', `  ${SUIT_SYMBOLS[suit]}`);

/** The short command that plays a move: `d`, `r`, `w 3`, `7 f`, `7 3 2`, `fh 3`. */
export function moveCommand(move: Move): string {
  if (move.type === 'draw') return 'd';
  if (move.type === 'recycle') return 'r';
  const from =
    move.from === 'waste' ? 'w' : move.from.startsWith('t') ? move.from.slice(1) : move.from.toLowerCase();
  const to = move.to.startsWith('t') ? move.to.slice(1) : 'f';
  const count = move.count !== undefined && move.count > 1 ? ` ${move.count}` : '';
  return `${from} ${to}${count}`;
}

/** A pile's code (`t3`, `fH`) as the help names the pile: `column 3`, `the ♥ foundation`. */
const pileWords = (pile: string): string =>
  pile.startsWith('t') ? `column ${pile.slice(1)}` : `the ${SUIT_SYMBOLS[pile[1] as Suit]} foundation`;

/**
 * A hint (GET /games/{id}/hint) as the terminal says it: the command that plays its move, then the
 * service's reason with its cards and piles as the board and the help show them, and its odds in
 * plain words: of the sampled ways the unseen cards may lie, how many can be won now, and after it.
 */
export function renderHint({ move, reason }: Hint): string {
  const words = withSymbols(reason)
    .replace(
      /Of (\d+) ways the unseen cards may lie, (\d+) can be won from here(?: \((\d+) undecided\))?, and this move loses (none|\d+) of them\./,
      (_, ways: string, won: string, open: string | undefined, lost: string) => {
        const after = Number(won) - (lost === 'none' ? 0 : Number(lost));
        const still =
          after === Number(won)
            ? after === 1
              ? 'it still can'
              : `all ${won} still can`
            : `${after} still can`;
        const unsure = open === undefined ? '' : ` and ${open} could not be worked out in time`;
        return `Of ${ways} ways the unseen cards may lie, ${won} can be won from here${unsure}; after this move, ${still}.`;
      },
    )
    .replace(/the top of the waste \((\d+) moves?\)/, (_, steps: string) =>
      steps === '1' ? 'the top of the waste' : `the top of the waste in ${steps} moves, this one the first`,
    )
    .replace(/\b(?:t[1-7]|f[CDHS])\b/g, pileWords)
    .replace(/\bfrom waste\b/, 'from the waste');
  return move ? `hint: ${moveCommand(move)}  (${words})` : `hint: ${words}`;
}

/** A move in words, with the cards it takes when the view shows them: `t7 → t1: 3♠`. */
export function describeMove(move: Move, view?: View, color = false): string {
  if (move.type === 'draw') return 'draw';
  if (move.type === 'recycle') return 'recycle the waste';
  const count = move.count ?? 1;
  const moving = view ? movingCards(view, move.from, count) : [];
  const cards = moving.length > 0 ? `: ${moving.map((code) => cardShort(code, color)).join(' ')}` : '';
  const what = count > 1 ? ` (${count} cards)` : '';
  return `${move.from} → ${move.to}${what}${cards}`;
}

function movingCards(view: View, from: string, count: number): string[] {
  if (from === 'waste') return view.waste.slice(-1);
  if (from.startsWith('f')) return (view.foundations[from[1] as Suit] ?? []).slice(-1);
  const column = view.tableau[Number(from.slice(1)) - 1];
  return column ? column.cards.slice(-count) : [];
}

/**
 * An event in words, for replays. Given the view after it, a card move names the cards it moved
 * (they are then on top of the pile they went to).
 */
export function describeEvent(event: GameEvent, after?: View, color = false): string {
  const data = event.data as {
    move?: Move;
    seed?: number | null;
    from?: string;
    to?: string;
    count?: number;
  };
  switch (event.type) {
    case 'dealt':
      return typeof data.seed === 'number' ? `dealt (seed ${data.seed})` : 'dealt';
    case 'drawn': {
      const top = after?.waste[after.waste.length - 1];
      return top === undefined ? 'draw' : `draw (waste top: ${cardShort(top, color)})`;
    }
    case 'recycled':
      return 'recycle the waste';
    case 'moved': {
      const move = { type: 'move', from: data.from, to: data.to, count: data.count ?? 1 } as Move & {
        type: 'move';
      };
      const text = describeMove(move);
      if (!after || move.to === 'foundation') return text;
      const cards = movingCards(after, move.to, move.count ?? 1);
      return cards.length > 0 ? `${text}: ${cards.map((code) => cardShort(code, color)).join(' ')}` : text;
    }
    case 'undone':
      return data.move ? `undo (${describeMove(data.move)})` : 'undo';
    case 'redone':
      return data.move ? `redo (${describeMove(data.move)})` : 'redo';
    case 'resigned':
      return 'resigned';
    default:
      return String(event.type);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The rules and counters line: draw, passes (and cards kept on the foundations), moves, scores. */
function statusLine(view: View): string {
  const passes =
    view.rules.passes === null
      ? `pass ${view.pass} (unlimited)`
      : `pass ${view.pass} of ${view.rules.passes} (${plural(view.recyclesLeft ?? 0, 'recycle')} left)`;
  return [
    `draw ${view.rules.draw}`,
    passes,
    ...(view.rules.foundationToTableau ? [] : ['no card back from the foundations']),
    plural(view.moves, 'move'),
    `score vegas ${view.score.vegas} standard ${view.score.standard}`,
  ].join(' · ');
}

/**
 * The table as text: a header (game, version, status), the stock (as backs, with its count), the
 * waste's top three cards (the top one rightmost), the four foundations, then the seven columns with
 * the face-down cards as backs. Piles are read bottom to top, as the API lists them.
 *
 * Once a game is over its views (a replay's frames too) reveal the deal: then the face-down cards
 * are drawn by their faces in brackets, the stock's order is listed (the next card drawn first) and
 * so is the whole waste (the board shows its top three): the people who replay finished games want the whole deal.
 */
export function renderBoard(view: View, options: RenderOptions = {}): string {
  const color = options.color ?? false;
  const lines: string[] = [];
  const status =
    view.status === 'won'
      ? paint(color, '1;32', 'WON')
      : view.status === 'resigned'
        ? paint(color, '1;33', 'resigned')
        : options.ended === undefined
          ? 'playing'
          : `in play at this step (the game ${options.ended === 'over' ? 'is over' : `was ${options.ended} later`})`;
  lines.push(`${bold(color, 'Klondike')}  game ${view.id}  version ${view.version}  ${status}`);
  lines.push(statusLine(view));
  const undo = [view.canUndo ? 'u undo' : '', view.canRedo ? 'y redo' : ''].filter(Boolean).join(' · ');
  if (undo && (options.undoKeys ?? true)) lines.push(dim(color, undo));
  const stockCards = view.stock.cards ?? [];
  const shown = stockCards.length > 0 || view.tableau.some((column) => (column.hiddenCards ?? []).length > 0);
  if (shown) lines.push(dim(color, '[ ]: a face-down card, shown because the game is over'));
  lines.push('');

  // Stock, waste, foundations.
  const stockTop = stockCards.at(-1);
  const stock =
    stockTop !== undefined
      ? revealed(stockTop, color)
      : padded(view.stock.count > 0 ? back(color) : view.recyclesLeft === 0 ? spent(color) : empty(color));
  // A revealed top card's bracket takes the blank after the cell: the count keeps one of its own.
  const stockLabel = `${stockTop !== undefined ? ' ' : ''}${view.stock.count}`.padEnd(3);
  const top = view.waste.slice(-3);
  const waste = [0, 1, 2]
    .map((i) => {
      const code = top[i];
      return code === undefined ? (i === 0 && top.length === 0 ? empty(color) : '   ') : card(code, color);
    })
    .join(' ');
  const wasteLabel = view.waste.length > 3 ? `+${view.waste.length - 3}` : '';
  const foundations = SUITS.map((suit) => {
    const pile = view.foundations[suit];
    const code = pile[pile.length - 1];
    return code === undefined ? foundationSlot(suit, color) : card(code, color);
  }).join('  ');
  const gap = '   ';
  const labels = ['fC', 'fD', 'fH', 'fS'].map((label) => label.padStart(3)).join('  ');
  lines.push(dim(color, ` ${'stock'.padEnd(7)}${gap}${'waste'.padEnd(15)}${gap}${labels}`));
  lines.push(`${stock}${stockLabel}${gap}${waste} ${wasteLabel.padEnd(3)}${gap}${foundations}`);
  lines.push('');
  // A finished game's whole deal: the stock in drawing order, and the waste when more of it is
  // there than its top three.
  const listed = (title: string, cells: string[]) => {
    lines.push(dim(color, ` ${title}:`));
    for (let i = 0; i < cells.length; i += CARDS_A_LINE) {
      lines.push(cells.slice(i, i + CARDS_A_LINE).join(' '));
    }
    lines.push('');
  };
  if (stockCards.length > 0) {
    listed(
      'stock, next card drawn first',
      [...stockCards].reverse().map((code) => revealed(code, color)),
    );
  }
  if (shown && view.waste.length > 3) {
    listed(
      'waste, bottom to top',
      view.waste.map((code) => padded(card(code, color))),
    );
  }

  // The tableau, one column of text per pile.
  lines.push(
    dim(
      color,
      view.tableau
        .map((_, i) => `  ${i + 1}  `)
        .join(' ')
        .trimEnd(),
    ),
  );
  const height = Math.max(1, ...view.tableau.map((column) => column.hidden + column.cards.length));
  for (let row = 0; row < height; row++) {
    const cells = view.tableau.map((column) => {
      if (row < column.hidden) {
        const code = column.hiddenCards?.[row];
        return code === undefined ? padded(back(color)) : revealed(code, color);
      }
      const code = column.cards[row - column.hidden];
      if (code !== undefined) return padded(card(code, color));
      return padded(row === 0 ? empty(color) : '   ');
    });
    lines.push(cells.join(' ').trimEnd());
  }
  return lines.map((line) => line.trimEnd()).join('\n');
}

/** The legal moves, one a line, each with the command that plays it. */
export function renderLegalMoves(view: View, options: RenderOptions = {}): string {
  if (view.legalMoves.length === 0) {
    return view.status === 'playing' ? 'No legal move: undo, or resign.' : `The game is ${view.status}.`;
  }
  return view.legalMoves
    .map((move) => `  ${moveCommand(move).padEnd(8)} ${describeMove(move, view, options.color)}`)
    .join('\n');
}

/** A time as the API writes it (ISO 8601), as the terminal shows times: `2026-12-05 13:21:42 UTC`. */
const utcTime = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * A player's record, in a few lines. Its streaks: wins in a row among finished games, in the order
 * they ended; and UTC days in a row with a daily win.
 */
export function renderStats(player: string, stats: PlayerStats): string {
  const rate =
    stats.winRate === null ? 'no game finished yet' : `${Math.round(stats.winRate * 1000) / 10}% won`;
  return [
    `${player}: ${plural(stats.started, 'game')} dealt, ${stats.won} won, ${stats.resigned} resigned, ${stats.inPlay} in play (${rate})`,
    `  wins in a row: ${stats.currentStreak} now, best ${stats.bestStreak}; best Vegas ${stats.bestVegas ?? '-'}; fewest moves to win ${stats.fewestMovesToWin ?? '-'}`,
    `  daily deals: ${stats.daily.played} played, ${stats.daily.won} won; days in a row with a daily win: ${stats.daily.currentStreak} now, best ${stats.daily.bestStreak}`,
    ...(stats.asOf === null ? [] : [`  counted up to ${utcTime(stats.asOf)}`]),
  ].join('\n');
}

/**
 * A name another player chose, safe to print: control characters (an escape sequence would drive
 * the terminal) become `?`. The API allows none, but the terminal does not take that on trust.
 */
export const printable = (name: string): string => name.replace(/\p{Cc}/gu, '?');

/**
 * What a resigned game's analysis says (GET /games/{id}/analysis): whether its deal could be won
 * and, when the game was lost before it was resigned, until which version, with the command that
 * shows the table there (`url`: the ` --url U` the commands carry).
 */
export const renderAnalysis = (analysis: Analysis, view: View, url = ''): string =>
  verdictWords(
    analysis,
    view,
    (last) =>
      `It could still be won until version ${last} (npm run replay -- ${view.id} --at ${last}${url}); after it, no line could.`,
  );

/** Today's deal and its standing, and the signed-in player's own (`daily.me`) when there is one. */
export function renderDaily(daily: Daily, signedIn: boolean): string {
  const passes =
    daily.rules.passes === null ? 'unlimited passes' : plural(daily.rules.passes, 'pass', 'passes');
  const lines = [
    `Daily deal of ${daily.date} (draw ${daily.rules.draw}, ${passes}; the same deal for everyone until 00:00 UTC): ${daily.players === 0 ? 'no one has played it yet.' : `${plural(daily.players, 'player')} so far, ${daily.won} won it.`}`,
  ];
  const me = daily.me;
  if (!signedIn) lines.push('  sign in with --player NAME to play it');
  else if (!me) lines.push('  you have not started it: one attempt a day');
  else {
    const figures = `${plural(me.moves, 'move')} (${plural(me.actions, 'action')}, ${clock(me.elapsedMs)})`;
    if (me.status === 'playing') lines.push(`  you: in play, ${figures} so far`);
    else if (me.status === 'resigned') lines.push('  you: resigned (one attempt a day)');
    else lines.push(`  you: won in ${figures}${me.rank === null ? '' : `, rank ${me.rank} of ${daily.won}`}`);
  }
  return lines.join('\n');
}

/** The East Asian wide and fullwidth letters: two columns of a terminal each. */
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;

/** The columns of a terminal that a character takes: two for a wide one, none for a combining mark. */
const columnsOf = (char: string): number => (/\p{M}/u.test(char) ? 0 : WIDE.test(char) ? 2 : 1);

/**
 * A day's leaderboard (the entries of one or more pages): rank, name, actions (every action, undo
 * and redo too: what it is ranked by), moves, time, finish, and the game to replay once the day is over.
 * `you`: the name the leaderboards show for the signed-in player, whose rows are marked `›` (names
 * are not unique: a row under it is under that name).
 */
export function renderLeaderboard(board: Leaderboard, you?: string): string {
  const lines = [
    `Leaderboard of ${board.date}: ${plural(board.players, 'player')}, ${board.won} won (ranked by fewest actions, then time, then the earliest finish)`,
  ];
  if (board.entries.length === 0) {
    lines.push('  no one has won this deal yet');
    return lines.join('\n');
  }
  // 24 columns of the terminal, whatever the script: a wide (CJK) letter takes two, a mark none.
  const name = (text: string) => {
    let shown = '';
    let used = 0;
    const chars = [...printable(text)];
    const whole = chars.reduce((sum, char) => sum + columnsOf(char), 0);
    for (const char of chars) {
      if (whole > 24 && used + columnsOf(char) > 23) return `${shown}…${' '.repeat(23 - used)}`;
      shown += char;
      used += columnsOf(char);
    }
    return shown + ' '.repeat(24 - used);
  };
  const times = rankedClocks(board.entries);
  const width = Math.max(7, ...times.map((time) => time.length));
  lines.push(
    `  ${'rank'.padStart(4)}  ${name('player')}  actions  moves  ${'time'.padStart(width)}  finished  game`,
  );
  board.entries.forEach((entry, i) => {
    lines.push(
      `${entry.player === you ? '› ' : '  '}${String(entry.rank).padStart(4)}  ${name(entry.player)}  ${String(entry.actions).padStart(7)}  ${String(entry.moves).padStart(5)}  ${times[i]!.padStart(width)}  ${entry.finishedAt.slice(11, 19)}Z ${entry.gameId ?? '(shown after the day)'}`,
    );
  });
  lines.push(
    board.entries.some((entry) => entry.gameId !== null)
      ? '  replay a game: npm run replay -- <game>'
      : '  the games and their replays show once the day is over (00:00 UTC)',
  );
  if (you !== undefined) {
    lines.push(
      board.entries.some((entry) => entry.player === you)
        ? `  › your name on the leaderboards, ${printable(you)}`
        : `  your name on the leaderboards, ${printable(you)}, is not among these`,
    );
  }
  return lines.join('\n');
}
