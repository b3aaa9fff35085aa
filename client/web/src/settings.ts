/**
 * The player's settings, kept in this browser (local storage): the rules of the next deal, whether
 * safe cards go home by themselves, the score shown, and motion. Any value missing or out of range
 * in storage falls back to its default, so an older or damaged entry never breaks the page.
 */
import type { Rules } from '../../types.js';
import { storage, useStore } from './store.js';

export interface Settings {
  readonly draw: 1 | 3;
  /** Passes through the deck; null for unlimited. */
  readonly passes: number | null;
  readonly foundationToTableau: boolean;
  /** Safe cards go home by themselves after each move (through the API's autoplay). */
  readonly autoplay: boolean;
  readonly score: 'standard' | 'vegas';
  /** No slides or turns, whatever the system says (which is honoured too). */
  readonly reducedMotion: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  draw: 3,
  passes: 3,
  foundationToTableau: true,
  autoplay: true,
  score: 'standard',
  reducedMotion: false,
};

const KEY = 'klondike.settings';

/** The passes a player may choose (null: no limit): what Settings offers, and all a stored value may be. */
export const PASSES: readonly (number | null)[] = [1, 2, 3, 4, 5, null];

/** The stored settings, each field checked; anything odd is its default. */
function load(): Settings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(storage()?.getItem(KEY) ?? '{}') as unknown;
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {}
  const d = DEFAULT_SETTINGS;
  const passes = stored.passes;
  return {
    draw: stored.draw === 1 || stored.draw === 3 ? stored.draw : d.draw,
    passes: PASSES.includes(passes as number | null) ? (passes as number | null) : d.passes,
    foundationToTableau:
      typeof stored.foundationToTableau === 'boolean' ? stored.foundationToTableau : d.foundationToTableau,
    autoplay: typeof stored.autoplay === 'boolean' ? stored.autoplay : d.autoplay,
    score: stored.score === 'vegas' || stored.score === 'standard' ? stored.score : d.score,
    reducedMotion: typeof stored.reducedMotion === 'boolean' ? stored.reducedMotion : d.reducedMotion,
  };
}

let current = load();
const listeners = new Set<(next: Settings) => void>();

export const settings = {
  get: (): Settings => current,
  set(patch: Partial<Settings>): void {
    current = { ...current, ...patch };
    try {
      storage()?.setItem(KEY, JSON.stringify(current));
    } catch {
      // Storage full or refused: the settings hold until the page is closed.
    }
    for (const listener of listeners) listener(current);
  },
  subscribe(listener: (next: Settings) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The rules of the next deal. */
export const rulesOf = (s: Settings): Rules => ({
  draw: s.draw,
  passes: s.passes,
  foundationToTableau: s.foundationToTableau,
});

/** Whether to move cards at all: the player's setting, or the system's wish for less motion. */
export function reducedMotion(): boolean {
  return current.reducedMotion || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

export const useSettings = (): Settings => useStore(settings.get, settings.subscribe);
