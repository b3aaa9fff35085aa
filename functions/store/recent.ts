import type { Loaded } from './events.js';

/**
 * Games this container wrote last, kept in memory so the next write to the same game can skip the
 * read: it is decided on the remembered state and appended at the next version with the usual
 * conditional put. If any other writer got there first, that put fails and the game is read
 * afresh, so the log stays the only truth. Only writes use it, and any answer other than a
 * successful append is given from a fresh read. It is a cache: losing it changes nothing.
 */
const MAX_GAMES = 512;
const games = new Map<string, Loaded>();

export function remembered(id: string): Loaded | undefined {
  return games.get(id);
}

export function remember(id: string, loaded: Loaded): void {
  games.delete(id);
  games.set(id, loaded);
  if (games.size > MAX_GAMES) games.delete(games.keys().next().value!);
}

export function forget(id: string): void {
  games.delete(id);
}

export function forgetAll(): void {
  games.clear();
}
