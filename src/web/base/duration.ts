// Durations as people type them into a timesheet cell, and as the cell shows them.
// Accepted: `1:30` (h:mm), a bare number, which is hours as in every grid timesheet people
// know (`8`, `1.5`, `1,5`), `1h30`, `1h 30m`, `2h` and minutes with their unit (`90m`).
// Pure: no DOM, unit-tested in test/web/duration.test.ts.

/** Seconds, or null for an empty text (the cell is cleared). */
export type ParsedDuration = { ok: true; seconds: number | null } | { ok: false; message: string };

/** At most a day in one cell. */
export const MAX_CELL_SECONDS = 24 * 3600;

const FORMATS = 'Type a duration like 8 or 1.5 (hours), 1:30, 1h30 or 90m';

/** The hint under a grid of duration fields. */
export const DURATION_HINT = 'A number is hours (8, 1.5); 1:30, 1h30 and 90m work too';

export function parseDuration(input: string): ParsedDuration {
  const text = input.trim().toLowerCase().replace(/\s+/g, '');
  if (text === '') return { ok: true, seconds: null };
  const minutes = toMinutes(text);
  if (minutes === undefined || !Number.isFinite(minutes)) return { ok: false, message: FORMATS };
  const seconds = minutes * 60;
  if (seconds > MAX_CELL_SECONDS) {
    return { ok: false, message: 'A day has at most 24 hours (24:00); minutes need an m: 90m' };
  }
  return { ok: true, seconds };
}

/** `h:mm`, minutes rounded; '' for null. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Minutes of a text without blanks, in one of the accepted forms; else undefined. */
function toMinutes(text: string): number | undefined {
  const clock = /^(\d{1,2}):([0-5]\d)$/.exec(text);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  // A bare number: hours (`8`, `1.5`, `1,5`, `.25`, `2.`).
  const decimal = /^(\d{1,3})?(?:[.,](\d{1,2})?)?$/.exec(text);
  if (decimal && (decimal[1] || decimal[2])) {
    return Math.round(Number(`${decimal[1] ?? '0'}.${decimal[2] ?? '0'}`) * 60);
  }
  const hoursDecimal = /^(\d{1,2}(?:[.,]\d{1,2})?)h$/.exec(text);
  if (hoursDecimal) return Math.round(Number(hoursDecimal[1]?.replace(',', '.')) * 60);
  // `1h30`, `1h30m`, `2h`, `90m`: minutes bare only after hours.
  const units = /^(?:(\d{1,2})h)?(?:(\d{1,4})(m?))?$/.exec(text);
  if (units && (units[1] || units[2]) && (units[1] || units[3] || !units[2])) {
    return Number(units[1] ?? 0) * 60 + Number(units[2] ?? 0);
  }
  return undefined;
}
