// ISO weeks (Monday first, week 1 holds the year's first Thursday) over plain
// `YYYY-MM-DD` dates, computed in UTC so no time zone moves a day. Pure: no DOM.

export interface IsoWeek {
  year: number;
  week: number;
}

const DAY_MS = 86_400_000;

export function toIsoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function fromIsoDate(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** The ISO week a date falls in. */
export function isoWeekOf(date: string): IsoWeek {
  const d = fromIsoDate(date);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(d.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  return { year, week: 1 + Math.floor((thursday.getTime() - jan1) / (7 * DAY_MS)) };
}

/** The seven dates, Monday to Sunday, of an ISO week. */
export function daysOfWeek({ year, week }: IsoWeek): string[] {
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const monday1 = jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * DAY_MS;
  const monday = monday1 + (week - 1) * 7 * DAY_MS;
  return Array.from({ length: 7 }, (_, i) => toIsoDate(new Date(monday + i * DAY_MS)));
}

/** `2024-W05` */
export function formatWeek({ year, week }: IsoWeek): string {
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** `2024-W05` → the week; undefined for anything else (or a week the year lacks). */
export function parseWeek(text: string | null): IsoWeek | undefined {
  const m = /^(\d{4})-W(\d{2})$/.exec(text ?? '');
  if (!m) return undefined;
  const week = { year: Number(m[1]), week: Number(m[2]) };
  if (week.week < 1) return undefined;
  const monday = daysOfWeek(week)[0] as string;
  return formatWeek(isoWeekOf(monday)) === text ? week : undefined;
}

/** `date` (YYYY-MM-DD) moved by a number of days. */
export function shiftDay(date: string, by: number): string {
  return toIsoDate(new Date(fromIsoDate(date).getTime() + by * DAY_MS));
}

export function shiftWeek(week: IsoWeek, by: number): IsoWeek {
  const monday = daysOfWeek(week)[0] as string;
  return isoWeekOf(shiftDay(monday, 7 * by));
}

/** Today in the browser's time zone, as `YYYY-MM-DD` (the day the user is living). */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** An instant (ISO 8601) as `YYYY-MM-DD HH:MM:SS` in the browser's time zone. */
export function formatInstant(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${String(d.getFullYear()).padStart(4, '0')}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return `${day} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
