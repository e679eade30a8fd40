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

/**
 * An IANA time zone name this server's time zone data knows (Europe/Berlin, UTC, the
 * aliases too): what a user's `timezone` may be. Offsets (+01:00) are not zone names.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    zoneFormat(name);
    return true;
  } catch {
    return false;
  }
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** A formatter of wall-clock dates and times in `zone`, made once per zone (throws if unknown). */
function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormats.set(zone, format);
  }
  return format;
}

/**
 * The wall clock at `ms` in `zone` (an IANA name), or in the server's time zone (TZ, else
 * the system's) when null: its calendar date (YYYY-MM-DD) and its time of day (HH:MM:SS).
 * What a timer writes into the entry it makes: the day and the time it started.
 */
export function wallClock(ms: number, zone: string | null): { date: string; time: string } {
  const pad = (n: number) => String(n).padStart(2, '0');
  // A zone this server's time zone data no longer knows counts as none.
  if (zone === null || !isTimeZone(zone)) {
    const d = new Date(ms);
    return {
      date: localDate(ms),
      time: `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    };
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of zoneFormat(zone).formatToParts(ms)) part[p.type] = p.value;
  return {
    date: `${(part.year ?? '').padStart(4, '0')}-${part.month}-${part.day}`,
    time: `${part.hour}:${part.minute}:${part.second}`,
  };
}

/** An instant as ISO 8601 in UTC with milliseconds (`2026-11-23T10:15:00.000Z`). */
export const formatTimestamp = (ms: number): string => new Date(ms).toISOString();
