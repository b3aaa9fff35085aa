import { useEffect, useState } from 'preact/hooks';
import type { View } from '../../types.js';
import { api } from './api.js';

/** YYYY-MM-DD, as the API writes a day, and a day of the calendar (not 2026-02-30, which a Date rolls on). */
export const isDay = (text: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
};

/** The day `days` after `day` (before, when negative), in UTC. */
export function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

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
