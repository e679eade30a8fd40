// The values other trackers write into their exports, read into ours: calendar dates in
// the orders their settings offer, clock times on 12- or 24-hour clocks, durations as
// clocks, decimals or "1h 30min", and instants with a UTC offset. Each parser answers
// undefined for text it cannot read; the format modules turn that into a row's problem.
// Hand-written rather than Date/regex-heavy: a million rows go through them.
import { wallClock } from '../dates';

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function ymd(y: number, m: number, d: number): string | undefined {
  if (!(y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1)) return undefined;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (m === 2 && !leap ? 28 : (DAYS_IN_MONTH[m - 1] as number))) return undefined;
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
}

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/;

/**
 * A calendar date as YYYY-MM-DD from `2024-03-05`, `03/05/2024` (month first: Clockify's
 * default and the US order), `05.03.2024` and `05-03-2024` (day first, the European
 * orders the trackers offer). A date in another order that cannot be a date in this one
 * (`13/05/2024`) is read day first. A time of day after it (`2024-03-05 09:00`) is ignored.
 */
export function parseDate(text: string): string | undefined {
  // A file has a few thousand days over its million rows: each is read once.
  const known = readDates.get(text);
  if (known !== undefined) return known;
  const date = readDate(text);
  if (date !== undefined) {
    if (readDates.size >= 10_000) readDates.clear();
    readDates.set(text, date);
  }
  return date;
}

const readDates = new Map<string, string>();

function readDate(text: string): string | undefined {
  const s = text.trim().split(/[ T]/, 1)[0] as string;
  let m = ISO_DATE.exec(s);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  m = NUMERIC_DATE.exec(s);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const y = Number(m[4]);
  if (m[2] === '/') return a > 12 ? ymd(y, b, a) : ymd(y, a, b);
  return ymd(y, b, a);
}

const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*([AaPp]\.?[Mm]\.?)?$/;

/**
 * A time of day as HH:MM:SS from `09:05`, `9:05:30`, `1:30 PM`, `12:00:00 a.m.`
 * (12-hour clocks: 12 AM is midnight, 12 PM noon). Fractions of a second are dropped.
 */
export function parseClock(text: string): string | undefined {
  const m = CLOCK.exec(text.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2]);
  const sec = m[3] === undefined ? 0 : Number(m[3]);
  if (min > 59 || sec > 59) return undefined;
  if (m[4] !== undefined) {
    if (h < 1 || h > 12) return undefined;
    const pm = m[4][0] === 'p' || m[4][0] === 'P';
    h = (h % 12) + (pm ? 12 : 0);
  } else if (h > 23) return undefined;
  return `${pad2(h)}:${pad2(min)}:${pad2(sec)}`;
}

/** Seconds since midnight of an HH:MM:SS clock. */
export const clockSeconds = (clock: string): number =>
  Number(clock.slice(0, 2)) * 3600 + Number(clock.slice(3, 5)) * 60 + Number(clock.slice(6, 8));

const DURATION_CLOCK = /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/;
const DECIMAL = /^\d+(?:[.,]\d+)?$/;
const UNITS =
  /^(?:(\d+(?:[.,]\d+)?)\s*h(?:ours?|rs?)?)?\s*(?:(\d+)\s*m(?:in(?:utes?)?)?)?\s*(?:(\d+)\s*s(?:ec(?:onds?)?)?)?$/i;

/**
 * A duration in whole seconds from `1:30:00` or `1:30` (hours:minutes), decimal hours
 * (`1.5`, `1,5`) and `1h 30min`/`1h 30m 5s`. Negative and empty text is undefined.
 */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  let m = DURATION_CLOCK.exec(s);
  if (m) {
    const min = Number(m[2]);
    const sec = m[3] === undefined ? 0 : Number(m[3]);
    if (min > 59 || sec > 59) return undefined;
    return Number(m[1]) * 3600 + min * 60 + sec;
  }
  if (DECIMAL.test(s)) return Math.round(Number(s.replace(',', '.')) * 3600);
  m = UNITS.exec(s);
  if (m && (m[1] !== undefined || m[2] !== undefined || m[3] !== undefined)) {
    const h = m[1] === undefined ? 0 : Number(m[1].replace(',', '.'));
    return Math.round(h * 3600) + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  }
  return undefined;
}

/** A date and a clock time where the person was: `2024-03-05`, `09:00:00`. */
export interface WallTime {
  date: string;
  clock: string;
}

const OFFSET = /(Z|[+-]\d{2}:?\d{2}|\s*UTC)$/i;

/**
 * A date with a time, as `2024-03-05 09:00:00`, `2024-03-05T09:00:00+01:00`,
 * `…Z` or `03/05/2024 1:30 PM`. With an offset (or Z, UTC) it is an instant (`at`, ms);
 * without one, the wall time as written.
 */
export function parseDateTime(text: string): { wall: WallTime } | { at: number } | undefined {
  let s = text.trim();
  const offset = OFFSET.exec(s);
  if (offset) s = s.slice(0, offset.index);
  const split = s.search(/[ T]/);
  if (split < 0) return undefined;
  const date = parseDate(s.slice(0, split));
  const clock = parseClock(s.slice(split + 1));
  if (date === undefined || clock === undefined) return undefined;
  if (!offset) return { wall: { date, clock } };
  const o = (offset[1] as string).trim().toUpperCase();
  let minutes = 0;
  if (o !== 'Z' && o !== 'UTC') {
    const digits = o.replace(':', '');
    minutes =
      (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * (o[0] === '-' ? -1 : 1);
  }
  return { at: Date.parse(`${date}T${clock}Z`) - minutes * 60_000 };
}

/** Wall time → seconds on a continuous scale (for end − start across midnight and days). */
export const wallSeconds = (w: WallTime): number =>
  Date.parse(`${w.date}T00:00:00Z`) / 1000 + clockSeconds(w.clock);

/**
 * A spreadsheet's serial day number (1900 date system, XLSX) as a date or a clock: the
 * whole part counts days from 1899-12-30, the fraction is the time of day.
 */
export function serialToWall(serial: number): WallTime {
  const ms = Math.round((serial - 25569) * 86_400_000);
  const iso = new Date(ms).toISOString();
  return { date: iso.slice(0, 10), clock: iso.slice(11, 19) };
}

/**
 * An instant as the wall time in `zone` (IANA; undefined: the server's own zone): the
 * clock the timer uses too (dates.ts wallClock).
 */
export function wallTimeIn(at: number, zone: string | undefined): WallTime {
  const { date, time } = wallClock(at, zone ?? null);
  return { date, clock: time };
}

/** `http://` or `https://` text, as issue_uri takes it. */
export const isHttpUrl = (s: string): boolean => /^https?:\/\/\S+$/i.test(s);
