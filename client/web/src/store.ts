/** What the page keeps in the browser, and the small stores of state that components follow. */
import { useEffect, useState } from 'preact/hooks';

/** The browser's storage, or undefined where it is off (a private window, a policy): the page then works without memory. */
export function storage(kind: 'localStorage' | 'sessionStorage' = 'localStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}

/** A value kept outside the components (the session, the settings), followed by a component: redrawn on every change. */
export function useStore<T>(get: () => T, subscribe: (listener: (next: T) => void) => () => void): T {
  const [current, setCurrent] = useState(get);
  useEffect(() => {
    setCurrent(get());
    return subscribe(setCurrent);
  }, []);
  return current;
}
