// Dates leave the server as calendar dates in UTC (SPEC §1); inside they are ms.
import { TIME_OF_DAY_PATTERN } from './shapes/common';

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

const TIME_OF_DAY = new RegExp(TIME_OF_DAY_PATTERN);

/** A wall-clock time of day written HH:MM:SS, 00:00:00 to 23:59:59 (a time's start_time). */
export const isTimeOfDay = (s: string): boolean => TIME_OF_DAY.test(s);

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
