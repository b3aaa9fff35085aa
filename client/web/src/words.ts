/**
 * What the page says, in a card player's words. The API speaks in codes (a problem's `type` and
 * `rule`, piles `t3` and `fD`, cards `4D`); every sentence a player reads is made here, from those
 * codes and the cards on the table, never from the API's own `detail`.
 */
import { leftToGoHome } from '../../autoplay.js';
import { NAME_MAX, nameCharacters } from '../../names.js';
import type { GameEvent, Hint, Move, PlayedMove, Problem, Rules, Suit, View } from '../../types.js';
import type { Action } from './api.js';
import { cardShort, SUIT_NAMES } from './cards.js';
import { column, faceUp, isFoundation, isTableau, PILES, type PileId } from './piles.js';

export type Rule = NonNullable<Problem['rule']>;

const RANKS = 'A23456789TJQK';
const RED = new Set(['D', 'H']);

/** How long an input may wait on the server before the message line says so (`WAITING`). */
export const SLOW_MS = 2_000;
/** What the message line says while a slow server keeps an input waiting (the line clears after it). */
export const WAITING =
  'Waiting for the game server: this input is on its way, and any after it will follow in turn.';

/** "4♦", or "the card" when there is none to name. */
const named = (card: string | undefined) => (card ? cardShort(card) : 'the card');

/** Where a pile is, as a player says it: "column 3", "the diamonds foundation". */
export function placeName(pile: PileId): string {
  if (pile === 'stock') return 'the stock';
  if (pile === 'waste') return 'the waste';
  if (isFoundation(pile)) return `the ${SUIT_NAMES[pile[1] as Suit]} foundation`;
  return `column ${pile[1]}`;
}

/** The cards a move takes from a view: the moving card is the lowest of them. */
function movingCard(view: View | null, move: Move | PlayedMove): string | undefined {
  if (!view || move.type !== 'move') return undefined;
  const cards = faceUp(view, move.from as PileId);
  return cards[cards.length - (move.count ?? 1)];
}

/** The card a move goes onto, if the target pile has one. */
function targetCard(view: View | null, move: Move | PlayedMove, moving?: string): string | undefined {
  if (!view || move.type !== 'move') return undefined;
  if (move.to !== 'foundation') return faceUp(view, move.to).at(-1);
  return moving ? faceUp(view, `f${moving[1]}` as PileId).at(-1) : undefined;
}

interface Placing {
  /** The lowest of the cards moved. */
  readonly card: string | undefined;
  readonly count: number;
  readonly from: PileId;
  /** Where they go: a pile, or `foundation` (their own). */
  readonly to: PileId | 'foundation';
  /** The card they go on, if the target pile has one. */
  readonly onto: string | undefined;
}

/** Cards put somewhere, as an instruction: "Put 3♠ on 4♥", "Put 9♦ and the 2 cards on it in the empty column 4". */
function placingWords({ card, count, from, to, onto }: Placing): string {
  const what = takenWords(card, count);
  if (to === 'foundation' || isFoundation(to)) return `Put ${what} home`;
  const where = onto ? `on ${cardShort(onto)}` : `in the empty ${placeName(to)}`;
  return isFoundation(from) ? `Take ${what} back from its foundation, ${where}` : `Put ${what} ${where}`;
}

/**
 * A move as an instruction, with the cards of the view it is played on: "Put 3♠ on 4♥",
 * "Put A♣ home", "Put K♠ in the empty column 4", "Draw from the stock".
 */
export function moveWords(move: Move | PlayedMove, view: View | null): string {
  if (move.type === 'draw') return 'Draw from the stock';
  if (move.type === 'recycle') return 'Turn the waste over to deal it again';
  const card = movingCard(view, move);
  return placingWords({
    card,
    count: move.count ?? 1,
    from: move.from,
    to: move.to as PileId | 'foundation',
    onto: targetCard(view, move, card),
  });
}

/** "3♠", "9♦ and the 2 cards on it": the cards a move or a pick-up takes. */
const takenWords = (card: string | undefined, count: number) =>
  count > 1 ? `${named(card)} and the ${count === 2 ? 'card' : `${count - 1} cards`} on it` : named(card);

/** Cards picked up, for a screen reader: "Picked up 9♦ and the 2 cards on it: choose where they go". */
export function pickedUpWords(view: View, from: PileId, count: number): string {
  const cards = faceUp(view, from);
  const taken = `Picked up ${takenWords(cards[cards.length - count], count)}`;
  const goes = view.legalMoves.some(
    (move) => move.type === 'move' && move.from === from && move.count === count,
  );
  return goes
    ? `${taken}: choose where ${count > 1 ? 'they go' : 'it goes'}`
    : `${taken}: no pile takes ${count > 1 ? 'them' : 'it'} now (Esc lets go)`;
}

/** Cards let go of (Esc), for a screen reader: "Let go of 9♦ and the 2 cards on it." */
export const letGoWords = (card: string, count: number): string => `Let go of ${takenWords(card, count)}.`;

/** What Enter would pick up from a column as ↑ ↓ choose it: "Enter picks up 9♦ and the 2 cards on it." */
export function aimWords(view: View, pile: PileId, count: number): string {
  const cards = faceUp(view, pile);
  return `Enter picks up ${takenWords(cards[cards.length - count], count)}.`;
}

/**
 * What a move did, from the views on either side of it, for a screen reader: "Moved 3♠ onto 4♥; Q♦
 * turned up in column 2", "Drawn: 7♣ on top of the waste", and "You won!" after the last card home.
 */
/** An input that came through after the card it was about had moved (a queued click or drop). */
export const goneWords = (card: string, moving: boolean): string =>
  `${cardShort(card)} had moved by the time this ${moving ? 'move' : 'press'} came through: nothing was ${moving ? 'moved' : 'picked up'}.`;

export function doneWords(move: Move | PlayedMove, before: View, after: View): string {
  if (move.type === 'draw')
    return after.waste.length ? `Drawn: ${cardShort(after.waste.at(-1)!)} on top of the waste.` : 'Drawn.';
  if (move.type === 'recycle') return 'The waste is turned over: the stock is dealt again.';
  const card = movingCard(before, move);
  const onto = targetCard(before, move, card);
  const to = move.to as PileId | 'foundation';
  const where =
    to === 'foundation' || isFoundation(to)
      ? 'home'
      : onto
        ? `onto ${cardShort(onto)}`
        : `to the empty ${placeName(to)}`;
  const from = move.from as PileId;
  const back = isFoundation(from) ? ' from its foundation' : '';
  const column = Number(from.slice(1)) - 1;
  const turned =
    isTableau(from) && after.tableau[column]!.hidden < before.tableau[column]!.hidden
      ? `; ${cardShort(after.tableau[column]!.cards[0]!)} turned up in ${placeName(from)}`
      : '';
  return `Moved ${takenWords(card, move.count ?? 1)}${back} ${where}${turned}.${after.status === 'won' ? ' You won!' : ''}`;
}

/**
 * What undo, redo, resign or autocomplete did, for a screen reader ("" for autoplay, whose words the
 * message line gives). An undo or a redo names what it changed, from the views on either side of it
 * (one Undo may take back a move and the safe cards that went home after it).
 */
export function actedWords(action: Action, before: View, after: View): string {
  const inPlay = `${after.moves === 1 ? '1 move' : `${after.moves} moves`} in play.`;
  switch (action) {
    case 'undo':
    case 'redo': {
      const changes = changeWords(before, after, action === 'undo');
      return `${action === 'undo' ? 'Undone' : 'Redone'}: ${changes.length ? `${changes.join('; ')}. ` : ''}${inPlay}`;
    }
    case 'resign':
      // What the finished game shows (its deal, or a daily deal kept until its day is over) is on the page.
      return 'You resigned.';
    case 'autocomplete':
      return after.status === 'won'
        ? 'Every card went home. You won!'
        : 'Autocomplete played the cards it could.';
    case 'autoplay':
      return '';
  }
}

/** Where each face-up card of a view lies (the stock's cards are not face up). */
function facesUp(view: View): Map<string, PileId> {
  const at = new Map<string, PileId>();
  for (const pile of PILES) for (const card of faceUp(view, pile)) at.set(card, pile);
  return at;
}

/**
 * What changed between two views of a game, an undo's or a redo's (`back`: an undo, whose cards go
 * back): "3♠ back onto 4♥", "Q♦ face down again in column 2", "7♣ and 2 more back in the stock".
 */
function changeWords(before: View, after: View, back: boolean): string[] {
  const was = facesUp(before);
  const now = facesUp(after);
  const words: string[] = [];
  // Cards that changed piles, by the pile they left and the one they reached, each run named by
  // its lowest card.
  const runs = new Map<string, { to: PileId; cards: string[] }>();
  for (const [card, to] of now) {
    const from = was.get(card);
    if (from === undefined || from === to) continue;
    const key = `${from} ${to}`;
    const run = runs.get(key) ?? { to, cards: [] };
    run.cards.push(card);
    runs.set(key, run);
  }
  for (const { to, cards } of runs.values()) {
    const pile = faceUp(after, to);
    const lowest = pile.length - cards.length;
    const onto = pile[lowest - 1];
    const where = isFoundation(to)
      ? 'home'
      : to === 'waste'
        ? 'on the waste'
        : onto
          ? `onto ${cardShort(onto)}`
          : isTableau(to) && column(after, to).hidden === 0
            ? `to the empty ${placeName(to)}`
            : `to ${placeName(to)}`;
    words.push(`${takenWords(pile[lowest], cards.length)}${back ? ' back' : ''} ${where}`);
  }
  // Cards face up on one side only: the talon's, dealt or turned over, and a column's card turned
  // down again (or up). An undo takes a draw back (waste to stock) or a turn of the waste (stock to
  // waste); a redo deals a draw again (stock to waste) or turns the waste over again.
  const hidden = [...was].filter(([card]) => !now.has(card));
  const shown = [...now].filter(([card]) => !was.has(card));
  const ofWaste = (cards: [string, PileId][]) =>
    cards.filter(([, pile]) => pile === 'waste').map(([card]) => card);
  const toStock = ofWaste(hidden);
  const fromStock = ofWaste(shown);
  if (toStock.length)
    words.push(
      back
        ? `${cardShort(toStock.at(-1)!)}${toStock.length > 1 ? ` and ${toStock.length - 1} more` : ''} back in the stock`
        : 'the waste turned over to deal it again',
    );
  if (fromStock.length)
    words.push(
      back
        ? `the waste as it was before it was turned over, ${cardShort(fromStock.at(-1)!)} on top`
        : `${cardShort(fromStock.at(-1)!)} drawn on top of the waste`,
    );
  // A card turned up and sent home at once (a safe card, by itself) is face up on its foundation
  // on one side and face down on the other, in the column that holds one more face-down card.
  const downMore = (down: View, up: View) =>
    (['t1', 't2', 't3', 't4', 't5', 't6', 't7'] as const).filter(
      (pile) => column(down, pile).hidden > column(up, pile).hidden,
    );
  const inColumn = (down: View, up: View) => {
    const piles = downMore(down, up);
    return piles.length === 1 ? ` in ${placeName(piles[0]!)}` : '';
  };
  for (const [card, pile] of hidden) {
    if (isTableau(pile)) words.push(`${cardShort(card)} face down again in ${placeName(pile)}`);
    else if (isFoundation(pile))
      words.push(`${cardShort(card)} off its foundation, face down again${inColumn(after, before)}`);
  }
  for (const [card, pile] of shown) {
    if (isTableau(pile)) words.push(`${cardShort(card)} turned up in ${placeName(pile)}`);
    else if (isFoundation(pile))
      words.push(`${cardShort(card)} turned up${inColumn(before, after)} and home`);
  }
  return words;
}

/**
 * A replay's event in words, from the view after it (the cards moved then lie on top of their new
 * pile), and for an undo or a redo, when the view before it is at hand, what it changed.
 */
export function eventWords(event: GameEvent, after: View, before?: View): string {
  const data = event.data as { from?: PileId; to?: PileId; count?: number; move?: { type: string } };
  const undone = (what: string) => {
    const changes = before ? changeWords(before, after, what === 'Undo') : [];
    if (changes.length) return `${what}: ${changes.join('; ')}`;
    return `${what} ${data.move?.type === 'draw' ? 'a draw' : data.move?.type === 'recycle' ? 'a turn of the waste' : 'a move'}`;
  };
  switch (event.type) {
    case 'dealt':
      return 'The deal';
    case 'drawn':
      return after.waste.length ? `Draw: ${cardShort(after.waste.at(-1)!)} on top of the waste` : 'Draw';
    case 'recycled':
      return 'Turn the waste over';
    case 'moved': {
      const count = data.count ?? 1;
      const pile = data.to ? faceUp(after, data.to) : [];
      return placingWords({
        card: pile[pile.length - count],
        count,
        from: data.from ?? 'waste',
        to: data.to ?? 'foundation',
        onto: pile[pile.length - count - 1],
      });
    }
    case 'undone':
      return undone('Undo');
    case 'redone':
      return undone('Redo');
    case 'resigned':
      return 'Resign';
  }
}

/** The next card a foundation takes: "A♦" when empty, "5♦" on 4♦. */
function nextFor(view: View | null, suit: Suit): string {
  const height = view?.foundations[suit].length ?? 0;
  return height >= 13 ? '' : cardShort(`${RANKS[height]}${suit}`);
}

/** Why a daily game has no hint and no analysis yet (the API's rule `daily-in-progress`). */
export const DAILY_SECRET =
  "This is today's deal: no hints and no analysis until the day is over (midnight UTC), for everyone.";

/** A day with no daily deal, when which of the two it is cannot be told (`noDealWords` can). */
export const NO_DEAL_THAT_DAY =
  'There is no daily deal of that day: it has not come yet, or it is before the first one.';

/** A day with no daily deal, by where it lies against `today` (the server's day). */
export const noDealWords = (day: string, today: string): string =>
  day > today
    ? 'That day has not come yet: its deal is kept secret until it begins (midnight UTC).'
    : 'There was no daily deal that day: the daily deals began after it.';

/** Why a deal asked for in New game cannot be dealt (the API answered 400), for what was given. */
export function dealRefusedWords(asked: {
  readonly seed?: number;
  readonly deck?: string | readonly string[];
}): string {
  if (asked.seed !== undefined)
    return 'That seed cannot be dealt: a seed is a whole number from 0 to 4294967295.';
  const deck = asked.deck;
  if (typeof deck === 'string')
    return `Those ${deck.length} digits are not a deal: a deal is 156 digits, 3 for each of the 52 cards, each card once.`;
  const notCard = deck?.find((code) => !/^[A2-9TJQK][CDHS]$/.test(code));
  if (notCard !== undefined)
    return `“${notCard}” is not a card: write each card as its rank and then its suit, such as 10♥ (10H or TH), Q♠ (QS) or A♦ (AD).`;
  const twice = deck?.find((code, i) => deck.indexOf(code) !== i);
  if (twice !== undefined) return `${cardShort(twice)} is there twice: a deal is the 52 cards, each once.`;
  if (deck && deck.length !== 52)
    return `That deck has ${deck.length} ${deck.length === 1 ? 'card' : 'cards'}: a deal is the 52 cards, each once.`;
  return 'That deck is not a deal: it needs each of the 52 cards once, written as the box says (10♥ or TH).';
}

/** Why a move was refused, by its rule, with the cards it concerned. */
export function ruleWords(rule: Rule, move: Move | undefined, view: View | null): string {
  const card = move ? movingCard(view, move) : undefined;
  const onto = move && card ? targetCard(view, move, card) : undefined;
  // The foundation the move named, or the card's own.
  const foundation =
    move?.type === 'move' && move.to !== 'foundation' && isFoundation(move.to) ? move.to : undefined;
  const suit = (foundation?.[1] ?? card?.[1]) as Suit | undefined;
  switch (rule) {
    case 'game-over':
      return 'This game is over: deal a new one to play on.';
    case 'game-too-long':
      return 'This game has reached 10,000 moves, the most one game can take. Deal a new one.';
    case 'nothing-to-undo':
      return 'There is no move to undo.';
    case 'nothing-to-redo':
      return 'There is no move to redo: only a move you undid can be, until a new move.';
    case 'draw-from-empty-stock':
      return view && view.recyclesLeft === 0
        ? 'The stock is empty, and no pass is left to deal it again.'
        : 'The stock is empty: turn the waste over to deal again.';
    case 'recycle-needs-empty-stock':
      return 'The waste can be turned over only once the stock is empty.';
    case 'recycle-needs-waste':
      return 'The waste is empty: there is nothing to turn over.';
    case 'pass-limit': {
      const passes = view?.rules.passes;
      return `No pass is left: the deck has been dealt ${passes === 1 ? 'once' : passes === 2 ? 'twice' : `${passes} times`}, as these rules allow.`;
    }
    case 'unknown-pile':
      return 'There is no such pile on the table.';
    case 'same-pile':
      return 'Those cards are already there.';
    case 'empty-source':
      return 'There is no card there to move.';
    case 'single-card-source':
      return 'Only the top card of the waste or of a foundation can move.';
    case 'count-exceeds-face-up':
      return 'Only face-up cards can move.';
    case 'run-not-in-sequence':
      return 'Those cards do not move together: a run goes down one rank at a time, red and black in turn.';
    case 'foundation-single-card':
      return 'Cards go home one at a time.';
    case 'foundation-suit':
      return `${named(card)} does not go on ${foundation ? placeName(foundation) : 'that foundation'}: each foundation takes one suit.`;
    case 'foundation-ascending': {
      const next = suit ? nextFor(view, suit) : '';
      return `${named(card)} cannot go home yet: ${next ? `its foundation takes ${next} next` : 'a foundation builds up from the Ace, one rank at a time'}.`;
    }
    case 'foundation-to-tableau-off':
      return 'With these rules a card stays on its foundation (Settings can change that for new games).';
    case 'foundation-to-foundation':
      return 'A card on a foundation can only go back to a column.';
    case 'empty-column-king':
      return `${card ? `${named(card)} cannot go there: ` : ''}an empty column takes only a King, or a run that starts with a King.`;
    case 'tableau-descending-alternating':
      return `${named(card)} does not go on ${onto ? cardShort(onto) : 'that card'}: it must be one rank lower and of the other colour.`;
    case 'daily-in-progress':
      return DAILY_SECRET;
  }
}

/** A key on a finished game. */
export const OVER_WORDS = 'This game is over: New game deals another.';
/** C before Autocomplete is offered. */
export const NO_AUTOCOMPLETE_WORDS =
  'Autocomplete is offered once it can finish the game: every card face up, or a finish proved.';
/** Autocomplete offered, for a screen reader (the button appears). */
export const AUTOCOMPLETE_OFFERED = 'Autocomplete is offered: C plays every card home.';

/** The development issuer's refusal of a player name, and the page's own before it asks. */
/**
 * What is wrong with a leaderboard name that the page can tell before sending it (its length, as the
 * server counts it: a letter with its marks is one character; the shape of a name made for a player
 * who chose none), in words; undefined when the server is to judge the rest.
 */
export function nameWords(raw: string): string | undefined {
  const characters = nameCharacters(raw);
  if (characters === 0) return 'A name needs at least one character.';
  if (characters > NAME_MAX) return `A name has at most ${NAME_MAX} characters; this one has ${characters}.`;
  if (/^player\s+[a-z0-9]{6}$/i.test(raw.trim()))
    return 'A name like “Player 7KQ2ZD” is that of a player who chose none: choose another.';
  return undefined;
}

export const SIGN_IN_NAME_WORDS =
  'A player name is one word of letters a to z (no accents), digits, _ . @ or -.';

/** A game of the player's own on the table when their sign-in lapsed. */
export const SIGN_IN_AGAIN_WORDS = 'Your sign-in has ended: sign in again to go on with this game.';

/** A link to a game the server does not have, or to none at all. */
export const NO_SUCH_GAME = 'There is no such game. Check the link, or deal a new game.';

/** The name of a problem type: the last segment of its URI (`/problems/illegal-move`). */
export const problemName = (problem: Partial<Problem>): string => (problem.type ?? '').split('/').pop() ?? '';

/** What happened, for every problem type the API answers, in words; `rule` says more for a refused move. */
export function problemWords(
  status: number,
  problem: Partial<Problem>,
  context: { move?: Move; view?: View | null; doing?: 'sign-in' | 'name' | 'day' | 'replay' } = {},
): string {
  if (problem.rule) return ruleWords(problem.rule, context.move, context.view ?? null);
  switch (problemName(problem)) {
    case 'malformed-request':
      if (context.doing === 'sign-in') return SIGN_IN_NAME_WORDS;
      if (context.doing === 'name')
        return "A name is 1 to 24 characters: letters of any alphabet (at most 4 accents or marks on one), digits, spaces and - _ . ' only, and not one like “Player 7KQ2ZD”, the name of a player who chose none.";
      if (context.doing === 'day')
        return 'That is not a day of the calendar: a day is written like 2026-05-14.';
      return 'The page sent something the game server does not understand. Reload the page and try again.';
    case 'unauthenticated':
      // A replay is public once its game is over: without a token, this one is not over yet.
      if (context.doing === 'replay')
        return "This game is still being played, or is today's daily deal: its replay opens to everyone once it is over and its day has ended (its player's own link opens it now).";
      return 'This game opens only from the link it was dealt with, or for its player once signed in. This browser has neither.';
    case 'forbidden':
      return 'This game opens only from the link it was dealt with, or for its player once signed in: this link or sign-in is not one of those.';
    case 'not-found':
      if (context.doing === 'day') return NO_DEAL_THAT_DAY;
      return NO_SUCH_GAME;
    case 'conflict':
      return 'Another move on this game landed at the same moment. Try again.';
    case 'precondition-failed':
      return 'This game was played on in another window or tab meanwhile: the table now shows it as it is.';
    case 'illegal-move':
      return 'That move is against the rules.';
    case 'payload-too-large':
      return 'That is too much to send at once.';
    case 'idempotency-key-reused':
      return 'That was sent twice with different contents. Try again.';
    case 'not-winnable':
      return 'Autocomplete works only once the game can surely be won: every card face up, and the stock dealt through once.';
    case 'game-in-play':
      return 'The analysis comes once the game is over.';
    case 'daily-in-progress':
      return DAILY_SECRET;
    case 'throttled':
      return 'Too many moves at once: wait a moment, then try again.';
    case 'store-unavailable':
      return 'The games are not reachable just now. Try again in a moment: nothing was lost.';
    case 'sign-in-unavailable':
      return 'Signing in is not available just now. Try again in a moment.';
    case 'busy':
      return 'The game server has its hands full just now. Try again in a moment.';
    case 'starting':
      return 'The game server is starting. Try again in a moment.';
    case 'request-timeout':
      return 'That took too long to arrive. Try again.';
    case 'internal':
      return 'Something went wrong on the game server. Try again.';
  }
  if (status === 0)
    return 'The game server cannot be reached. Check the connection (or that it is running), then try again.';
  return status >= 500
    ? 'The game server cannot answer just now. Try again in a moment.'
    : 'That could not be done.';
}

/**
 * The server's own sentences (a hint's reason) name piles and cards by code: this words them for a
 * player, as a last resort for a sentence that the hint wording below does not know.
 */
export function plainText(text: string): string {
  return text
    .replace(/\bt([1-7])\b/g, 'column $1')
    .replace(/\bf([CDHS])\b/g, (_, suit: Suit) => `the ${SUIT_NAMES[suit]} foundation`)
    .replace(/(?<![A-Za-z0-9])([A2-9TJQK])([CDHS])(?![A-Za-z0-9])/g, (code) => cardShort(code));
}

/** What the hint's reason says of the game's chances, when no line can win any more. */
export const isLostReason = (hint: Hint): boolean =>
  hint.move === null && /only undo can help|cannot be won/.test(hint.reason);

/** Whether the hint found a line that wins with every card known (what autocomplete needs). */
export const isWinningReason = (hint: Hint): boolean => /starts a line that wins/.test(hint.reason);

const PURPOSES: [RegExp, string][] = [
  [/never needed in the tableau again/, 'no card left in play can need it any more'],
  [
    /every card is known, and this starts a line that wins/,
    'every card is known, and this starts a winning line',
  ],
  [/gets a card to its foundation/, 'it gets a card home'],
  [/turns up a face-down card/, 'it turns up a face-down card'],
  [/empties a column/, 'it empties a column'],
  [/plays the waste's top card/, "it plays the waste's top card"],
  [/plays a card from the stock|brings a card of the stock/, 'it brings a card from the stock into play'],
  [/deals from the stock/, 'it deals new cards from the stock'],
  [
    /next pass deals the same cards the same way/,
    'with no limit on passes, seeing the whole stock before playing from it costs nothing',
  ],
  [/starts another pass/, 'it starts another pass through the deck'],
];

const NONE_WON =
  ' Your chances from here look slim: none of the likely ways the face-down cards could lie was won in the time given.';

/** The odds a hint weighed, said simply: "about 4 in 10". */
function chances(reason: string): string {
  const odds =
    /Of (\d+) ways the unseen cards may lie, (\d+) can be won from here(?: \((\d+) undecided\))?/.exec(
      reason,
    );
  if (!odds) {
    // A guess: no sampled deal was won (nor any proved lost: that is worded as a lost game), or the
    // time ran out before the choices could be weighed.
    if (/none of \d+ ways the unseen cards may lie could be won/.test(reason)) return NONE_WON;
    if (/time ran out before the choices could be weighed/.test(reason))
      return ' This is a guess: the time ran out before the ways to play could be weighed.';
    return '';
  }
  const [, tried, won, open] = odds.map(Number) as [number, number, number, number | undefined];
  if (won === 0) return NONE_WON;
  if (won === tried)
    return ' Your chances from here: very good, every likely way the face-down cards lie can be won.';
  // Between 1 and 9 in 10: "10 in 10" would say every way wins, and "0 in 10" that none does.
  const tenths = Math.min(9, Math.max(1, Math.round((10 * won) / tried)));
  return ` Your chances from here: about ${tenths} in 10${open ? ', maybe better (some ways could not be worked out in time)' : ''}.`;
}

/** A hint as a player says it: "Put 3♠ on 4♥: it turns up a face-down card. Your chances …". */
export function hintWords(hint: Hint, view: View | null): string {
  if (hint.move === null) {
    if (isLostReason(hint)) {
      return /only undo/.test(hint.reason)
        ? 'No line can win this game any more from here: undo to go back and try another way.'
        : 'No line can win this game any more: it is lost.';
    }
    if (/taking cards back from the foundations/.test(hint.reason))
      return 'Nothing is left but taking cards back from the foundations, and no way to win was found in time.';
    return `No move to suggest: ${plainText(hint.reason)}`;
  }
  const purpose = PURPOSES.find(([pattern]) => pattern.test(hint.reason))?.[1];
  const only = /only way forward/.test(hint.reason) ? ' It is the only way forward.' : '';
  const later = /makes way for a move/.exec(hint.reason) ? ' It makes way for a better move after it.' : '';
  const why = purpose ? `: ${purpose}.` : '.';
  return `${moveWords(hint.move, view)}${why}${only}${later}${chances(hint.reason)}`;
}

/** The cards that must be home before `card` goes home by itself (autoplay's cautious rule, in words). */
function neededFirst(card: string, view: View): string[] {
  const rank = RANKS.indexOf(card[0]!) + 1;
  const red = RED.has(card[1]!);
  const others = (red ? ['C', 'S'] : ['D', 'H']) as Suit[];
  const twin = (['C', 'D', 'H', 'S'] as Suit[]).find((s) => s !== card[1] && RED.has(s) === red)!;
  const needs = others.map((s) => [s, rank - 1] as const);
  if (view.rules.foundationToTableau) needs.push([twin, rank - 2]);
  return needs
    .filter(([suit, r]) => r >= 1 && view.foundations[suit].length < r)
    .map(([suit, r]) => cardShort(`${RANKS[r - 1]}${suit}`));
}

/** The rule autoplay follows, for Settings and the help. */
export const CAUTIOUS_RULE =
  'A card goes home by itself only once no card left in play can still need it: both cards of the other colour one rank lower are home (and, when cards may come back from the foundations, the other card of its colour two ranks lower). From the waste, only with draw 1 or in the last pass, since taking a card out changes what later passes deal.';

/** "A", "A and B", "A, B and C". */
const listWords = (items: readonly string[]): string =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** What autoplay did (the cards it sent home), and why it left a card that could have gone home. */
export function autoplayWords(before: View, after: View): string {
  const home = (Object.keys(after.foundations) as Suit[]).flatMap((suit) =>
    after.foundations[suit].slice(before.foundations[suit].length),
  );
  // A card sent home from the top of a column's face-up cards turns up the one under it.
  const turned = after.tableau.flatMap((column, i) =>
    column.hidden < before.tableau[i]!.hidden && column.cards[0] !== undefined
      ? [`${cardShort(column.cards[0])} turned up in ${placeName(`t${i + 1}` as PileId)}`]
      : [],
  );
  if (home.length > 0)
    return `${listWords(home.map(cardShort))} went home${turned.map((words) => `; ${words}`).join('')}.`;
  const left = leftToGoHome(after);
  if (left === undefined) return 'No card can go home just now.';
  const { card } = left;
  if (left.waste) {
    return `${cardShort(card)} could go home, but Autoplay leaves the waste alone before the last pass: taking a card out changes what later passes deal. Double-click it, or pick it up and put it on its foundation, to send it yourself.`;
  }
  const needed = neededFirst(card, after);
  return `${cardShort(card)} could go home, but Autoplay leaves it while a card in play may still need it${
    needed.length ? ` (${needed.join(', ')} ${needed.length === 1 ? 'is' : 'are'} not home yet)` : ''
  }. Double-click it, or pick it up and put it on its foundation, to send it yourself.`;
}

/** Rules in short: "draw 3, 3 passes", "draw 1, unlimited passes". */
export const rulesWords = (rules: Rules): string =>
  `draw ${rules.draw}, ${rules.passes === null ? 'unlimited passes' : `${rules.passes} ${rules.passes === 1 ? 'pass' : 'passes'}`}`;

/** A UTC day (YYYY-MM-DD) as a player reads it: "Thursday 14 May 2026". */
export function dayWords(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "3:07", "1:02:09". */
export { clock as clockWords, rankedClocks } from '../../clock.js';
