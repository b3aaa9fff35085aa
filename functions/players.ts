import { createHash } from 'node:crypto';

/**
 * How players are shown to each other (docs/api.md): the name a player chose, or `Player `
 * and 6 characters derived from their `sub`. Never the `sub` itself, nor an e-mail address.
 */
export const NAME_MAX = 24;

/**
 * Marks a letter may carry: enough for every script's letters (Vietnamese stacks two, Devanagari's
 * and Tibetan's conjuncts up to three or four), and no tower of marks over one character.
 */
const MARKS_MAX = 4;

/**
 * Letters of any script (each with the combining marks that follow it), digits, spaces and `-_.'`.
 * A combining mark is part of the letter before it, never a character of its own.
 */
const NAME = /^(?:\p{L}\p{M}*|[\p{Nd} \-_.'])+$/u;

/** A letter with more marks than MARKS_MAX. */
const TOWER = new RegExp(`\\p{M}{${MARKS_MAX + 1}}`, 'u');

/** The characters of a derived name's tag (`derivedName`): no I or O, no 0 or 1. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The shape of a derived name, which no player may choose unless it is their own (`looksDerived`). */
const DERIVED = new RegExp(`^Player [${ALPHABET}]{6}$`, 'i');

/** Cyrillic and Greek letters, and the Latin letters they pass for. */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [
    ['АΑ', 'A'],
    ['аα', 'a'],
    ['ВΒ', 'B'],
    ['ЕΕ', 'E'],
    ['еε', 'e'],
    ['Ζ', 'Z'],
    ['НΗ', 'H'],
    ['ІΙӀ', 'I'],
    ['іι', 'i'],
    ['Ј', 'J'],
    ['ј', 'j'],
    ['КΚ', 'K'],
    ['кκ', 'k'],
    ['МΜ', 'M'],
    ['Ν', 'N'],
    ['ОΟ', 'O'],
    ['оο', 'o'],
    ['РΡ', 'P'],
    ['рρ', 'p'],
    ['СϹ', 'C'],
    ['сϲ', 'c'],
    ['Ѕ', 'S'],
    ['ѕ', 's'],
    ['ТΤ', 'T'],
    ['УΥ', 'Y'],
    ['уγ', 'y'],
    ['ХΧ', 'X'],
    ['хχ', 'x'],
    ['ԛ', 'q'],
    ['Ԝ', 'W'],
    ['ԝ', 'w'],
    ['ν', 'v'],
    ['Ь', 'b'],
  ].flatMap(([from, to]) => [...from!].map((letter) => [letter, to!])),
);

/**
 * Whether a name would pass for a derived one on a page: in its compatibility form (a fullwidth Ｐ
 * is P), its runs of spaces made one (a page shows two as one), lookalike letters read as the Latin
 * they pass for (a Cyrillic а as a), in either case.
 */
const looksDerived = (name: string): boolean =>
  DERIVED.test(
    [...name.normalize('NFKC').replace(/\s+/g, ' ')].map((letter) => LOOKALIKES[letter] ?? letter).join(''),
  );

/** A character as a name counts it: one that is no mark, with the marks after it (or marks alone). */
const CHARACTER = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * A name `player` chose, trimmed and in Unicode's composed form; or why it is not one. A name that
 * looks like another player's derived one ("Player 7KQ2ZD", "Player  7KQ2ZD", "Plаyer 7KQ2ZD" with
 * a Cyrillic а) would pass for that player on a leaderboard. Chosen names are not unique: only the
 * derived ones stand for one player.
 */
export function checkName(
  raw: string,
  player: string,
): { readonly name: string } | { readonly problem: string } {
  const name = raw.normalize('NFC').trim();
  // A letter with its combining marks is one character (Devanagari's vowel signs, a decomposed ŵ).
  const length = name.match(CHARACTER)?.length ?? 0;
  if (length === 0) return { problem: 'A name needs at least one character.' };
  if (length > NAME_MAX)
    return { problem: `A name has at most ${NAME_MAX} characters; this one has ${length}.` };
  if (!NAME.test(name)) return { problem: "A name may hold letters, digits, spaces and - _ . ' only." };
  if (TOWER.test(name))
    return { problem: `A letter of a name carries at most ${MARKS_MAX} accents or marks.` };
  if (looksDerived(name) && name !== derivedName(player))
    return { problem: 'Names like "Player 7KQ2ZD" are those of players who chose none: choose another.' };
  return { name };
}

/** The name shown for a player who chose none: `Player ` and 6 characters from a hash of the sub. */
export function derivedName(player: string): string {
  const digest = createHash('sha256').update(`klondike-player\n${player}`, 'utf8').digest();
  let tag = '';
  for (let i = 0; i < 6; i++) tag += ALPHABET[digest[i]! % ALPHABET.length];
  return `Player ${tag}`;
}

export const displayName = (player: string, chosen: string | undefined): string =>
  chosen ?? derivedName(player);
