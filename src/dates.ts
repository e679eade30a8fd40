// Dates leave the server as calendar dates in UTC (SPEC §1); inside they are ms.

export function formatDate(ms: number): string;
export function formatDate(ms: number | null): string | null;
export function formatDate(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** A real calendar date written YYYY-MM-DD (2023-02-29 is not). */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * formatDate as an SQL expression, for statements that build the API's JSON themselves
 * (times). Seconds with the milliseconds as a fraction, so dates before 1970 round down
 * like toISOString does.
 */
export const sqlDate = (msColumn: string) => `date(${msColumn} / 1000.0, 'unixepoch')`;

/**
 * formatTimestamp as an SQL expression: the same text for any instant of years 0000–9999
 * (SQLite rounds the seconds to whole milliseconds, as the ms column holds them).
 */
export const sqlTimestamp = (msColumn: string) =>
  `strftime('%Y-%m-%dT%H:%M:%fZ', ${msColumn} / 1000.0, 'unixepoch')`;

/**
 * The calendar date of `ms` in the server's time zone (TZ, else the system's), as
 * YYYY-MM-DD: what "today" means for a timer started without a date_worked.
 */
export function localDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** An instant as ISO 8601 in UTC with milliseconds (`2026-11-23T10:15:00.000Z`). */
export const formatTimestamp = (ms: number): string => new Date(ms).toISOString();

// ISO 8601 weeks (issue 32) -------------------------------------------------------------

const DAY_MS = 86_400_000;

/** A UTC midnight of year/month/day, years 0–99 included (Date.UTC maps them to 19xx). */
function utcDay(year: number, month: number, day: number): Date {
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d;
}

const dayText = (d: Date) =>
  `${String(d.getUTCFullYear()).padStart(4, '0')}-${d.toISOString().slice(5, 10)}`;

/**
 * The ISO week of a calendar date as YYYY-Www (2021-01-03 is in 2020-W53): the same text
 * as SQLite's strftime('%G-W%V', date) for years 0001–9999, the key of a week part.
 */
export function isoWeekOf(date: string): string {
  const d = utcDay(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(d.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const first = utcDay(year, 1, 1);
  const week = 1 + Math.floor((thursday.getTime() - first.getTime()) / (7 * DAY_MS));
  return `${String(year).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

/** The Monday and the Sunday of an ISO week YYYY-Www (checked with isIsoWeek first). */
export function weekDates(week: string): { first: string; last: string } {
  const year = Number(week.slice(0, 4));
  const n = Number(week.slice(6, 8));
  const jan4 = utcDay(year, 1, 4);
  const monday = new Date(
    jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * DAY_MS + (n - 1) * 7 * DAY_MS,
  );
  return { first: dayText(monday), last: dayText(new Date(monday.getTime() + 6 * DAY_MS)) };
}

/** A real ISO week written YYYY-Www, years 0001–9999 (week 53 only in a year that has one). */
export function isIsoWeek(s: string): boolean {
  if (!/^\d{4}-W\d{2}$/.test(s) || s.startsWith('0000')) return false;
  const n = Number(s.slice(6, 8));
  if (n < 1 || n > 53) return false;
  return isoWeekOf(weekDates(s).first) === s;
}
