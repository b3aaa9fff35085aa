/** Days as the API writes them (YYYY-MM-DD, UTC), for both clients. */

/** Whether `text` is a day of the calendar, written YYYY-MM-DD (not 2026-02-30, which a Date rolls on). */
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
