import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { failureWords } from './api.js';

/** A list's rows and the page's scroll, kept in the history's entry of the page that shows it. */
interface Kept {
  readonly rows: number;
  readonly y: number;
}

/** What the history's current entry keeps for the list `name`, when it is sound. */
function kept(name: string): Kept | undefined {
  const value: unknown = history.state?.[name];
  if (typeof value !== 'object' || value === null) return undefined;
  const { rows, y } = value as Record<string, unknown>;
  return Number.isSafeInteger(rows) && (rows as number) >= 0 && Number.isFinite(y)
    ? { rows: rows as number, y: y as number }
    : undefined;
}

function keep(name: string, rows: number): void {
  const state: unknown = history.state;
  const others = typeof state === 'object' && state !== null ? state : {};
  history.replaceState({ ...others, [name]: { rows, y: window.scrollY } satisfies Kept }, '');
}

/** A list the API gives a page at a time, with what came beside its first page. */
export interface Pages<T, Beside> {
  readonly items: readonly T[];
  /** The cursor of the page after, or null at the end. */
  readonly next: string | null;
  readonly beside: Beside;
  /** When the first page was asked. */
  readonly at: Date;
}

export interface FirstPage<T, Beside> {
  readonly items: readonly T[];
  readonly next: string | null;
  readonly beside: Beside;
}

/**
 * A paged list (My games, a leaderboard): `load` asks the first page again, and the pages after it
 * until as many rows are shown as before (a Refresh, or the read models' settling, never takes back
 * the pages a player asked for); `more` the page after the last one shown. An answer that comes
 * after a newer request was made is dropped, and a failure is kept as its sentence, worded for what
 * was asked (`doing`). With `keepAs`, the list keeps its rows and the page's scroll in its entry of
 * the browser's history (under that name): Back to it from a game or a replay shows as many rows,
 * scrolled where they were.
 */
export function usePages<T, Beside>(
  first: () => Promise<FirstPage<T, Beside>>,
  after: (cursor: string) => Promise<{ readonly items: readonly T[]; readonly next: string | null }>,
  { doing, keepAs }: { readonly doing?: 'day'; readonly keepAs?: string } = {},
) {
  const [pages, setPages] = useState<Pages<T, Beside> | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  // The rows shown, for a `load` called from an effect's older render (its `pages` is stale).
  const shown = useRef(0);
  // What this entry of the history kept, for the first load.
  const restore = useRef(keepAs ? kept(keepAs) : undefined);
  const show = (next: Pages<T, Beside> | null) => {
    shown.current = next?.items.length ?? 0;
    if (keepAs) keep(keepAs, shown.current);
    setPages(next);
  };
  // A link followed from the page (a replay, a game) leaves this entry: where the page was scrolled
  // is kept with it.
  useEffect(() => {
    if (!keepAs) return;
    const onClick = (event: MouseEvent) => {
      if ((event.target as Element | null)?.closest?.('a[href^="#"]')) keep(keepAs, shown.current);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [keepAs]);

  async function ask<A>(request: () => Promise<A>, done: (answer: A) => void) {
    const mine = ++asked.current;
    setLoading(true);
    try {
      const answer = await request();
      if (mine !== asked.current) return;
      done(answer);
      setError(null);
    } catch (failure) {
      if (mine === asked.current) setError(failureWords(failure, doing));
    } finally {
      if (mine === asked.current) setLoading(false);
    }
  }

  return {
    pages,
    loading,
    error,
    /** Forgets what is shown (another list is coming). */
    clear: () => show(null),
    load: () => {
      const back = restore.current;
      const rows = Math.max(shown.current, back?.rows ?? 0);
      return ask(
        async () => {
          const page = await first();
          let { items, next } = page;
          while (next !== null && items.length < rows) {
            const later = await after(next);
            items = [...items, ...later.items];
            next = later.next;
          }
          return { ...page, items, next };
        },
        (page) => {
          show({ ...page, at: new Date() });
          if (back && restore.current === back) {
            restore.current = undefined;
            requestAnimationFrame(() => window.scrollTo(0, back.y));
          }
        },
      );
    },
    more: () => {
      const now = pages;
      if (!now?.next) return Promise.resolve();
      return ask(
        () => after(now.next!),
        (page) => show({ ...now, items: [...now.items, ...page.items], next: page.next }),
      );
    },
  };
}

/**
 * A page's list as a table (My games, a leaderboard): its column headings, then its rows. It
 * scrolls sideways on a phone, so the keyboard can reach it (a region named `label`).
 */
export function ListTable({
  label,
  headings,
  class: extra = '',
  children,
}: {
  readonly label: string;
  readonly headings: readonly string[];
  readonly class?: string;
  readonly children: ComponentChildren;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take the keyboard (WCAG 2.1.1; axe's scrollable-region-focusable).
    <section class="games-scroll" aria-label={label} tabIndex={0}>
      <table class={`games ${extra}`}>
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}

/**
 * The button that asks a list's next page ("More games"). The keyboard stays on it while more
 * pages are left; once the last has come and it leaves, the keyboard goes on to the list.
 */
export function MoreButton({
  more,
  disabled,
  children,
}: {
  readonly more: () => Promise<void>;
  readonly disabled: boolean;
  readonly children: ComponentChildren;
}) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={async (event) => {
        const button = event.currentTarget as HTMLButtonElement;
        const list = button.closest('section')?.querySelector<HTMLElement>('.games-scroll');
        await more();
        requestAnimationFrame(() => (button.isConnected ? button : list)?.focus());
      }}
    >
      {children}
    </button>
  );
}
