/**
 * A page's `next`: the text a route keeps between pages, in base64url. A cursor is read back only if
 * it is exactly as `cursorOf` writes it: base64url decoding skips what it cannot read (a character
 * added at the end), so a cursor edited that way would otherwise pass for the one it came from.
 */
export const cursorOf = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** The text a cursor holds, or undefined when `cursorOf` never writes it. */
export function fromCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return cursorOf(text) === cursor ? text : undefined;
}
