import { useEffect, useState } from 'preact/hooks';
import type { View } from '../../types.js';
import { api } from './api.js';

/**
 * Whether a view is of a daily game whose day is not over, by the server's day (GET /daily, once;
 * this browser's clock may be another's): its hints and analysis are refused until midnight UTC,
 * so the table offers neither. Until the server has said, a daily game is taken to be in its day.
 */
export function useDailySecret(view: View | null): boolean {
  const day = view?.daily;
  const [today, setToday] = useState<string | null>(null);
  useEffect(() => {
    if (day)
      api.daily(undefined).then(
        (answer) => setToday(answer.date),
        () => {},
      );
  }, [day]);
  if (!day || view?.deck) return false;
  return today === null || day >= today;
}
