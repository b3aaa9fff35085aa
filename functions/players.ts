import { createHash } from 'node:crypto';

/**
 * How players are shown to each other (docs/api.md): the name a player chose, or `Player `
 * and 6 characters derived from their `sub`. Never the `sub` itself, nor an e-mail address.
 */
export const NAME_MAX = 24;

/**
 * Letters of any script (each with the combining marks that follow it), digits, spaces and `-_.'`.
 * A combining mark is part of the letter before it, never a character of its own.
 */
const NAME = /^(?:\p{L}\p{M}*|[\p{Nd} \-_.'])+$/u;

/** A character as a name counts it: one that is no mark, with the marks after it (or marks alone). */
const CHARACTER = /\P{M}\p{M}*|\p{M}+/gu;

/** A chosen name, trimmed and in Unicode's composed form; or why it is not one. */
export function checkName(raw: string): { readonly name: string } | { readonly problem: string } {
  const name = raw.normalize('NFC').trim();
  // A letter with its combining marks is one character (Devanagari's vowel signs, a decomposed ŵ).
  const length = name.match(CHARACTER)?.length ?? 0;
  if (length === 0) return { problem: 'A name needs at least one character.' };
  if (length > NAME_MAX)
    return { problem: `A name has at most ${NAME_MAX} characters; this one has ${length}.` };
  if (!NAME.test(name)) return { problem: "A name may hold letters, digits, spaces and - _ . ' only." };
  return { name };
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The name shown for a player who chose none: `Player ` and 6 characters from a hash of the sub. */
export function derivedName(player: string): string {
  const digest = createHash('sha256').update(`klondike-player\n${player}`, 'utf8').digest();
  let tag = '';
  for (let i = 0; i < 6; i++) tag += ALPHABET[digest[i]! % ALPHABET.length];
  return `Player ${tag}`;
}

export const displayName = (player: string, chosen: string | undefined): string =>
  chosen ?? derivedName(player);
