import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { failureWords } from './api.js';

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
 * was asked (`doing`).
 */
export function usePages<T, Beside>(
  first: () => Promise<FirstPage<T, Beside>>,
  after: (cursor: string) => Promise<{ readonly items: readonly T[]; readonly next: string | null }>,
  doing?: 'day',
) {
  const [pages, setPages] = useState<Pages<T, Beside> | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  // The rows shown, for a `load` called from an effect's older render (its `pages` is stale).
  const shown = useRef(0);
  const show = (next: Pages<T, Beside> | null) => {
    shown.current = next?.items.length ?? 0;
    setPages(next);
  };

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
      const rows = shown.current;
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
        (page) => show({ ...page, at: new Date() }),
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
