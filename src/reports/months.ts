// The whole calendar months of a report's date range, for the per-month totals of
// sql/006: the range splits into a partial month at each edge (read entry by entry) and
// the whole months between (read from time_month_totals). Plain arithmetic on YYYY-MM-DD
// texts, so that years 0000–9999 all work (Date.UTC maps years below 100 to 19xx).

/** A month as one number (year × 12 + month − 1), so months compare and step simply. */
const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

const monthText = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The last day of a date's month, YYYY-MM-DD. */
export function lastDayOfMonth(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const days = m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  return `${date.slice(0, 8)}${days}`;
}

export interface MonthSplit {
  /** the first and last whole month, YYYY-MM */
  months: { first: string; last: string };
  /** the days before the first whole month, when start is not a month's first day */
  head?: { start: string; end: string };
  /** the days after the last whole month, when end is not a month's last day */
  tail?: { start: string; end: string };
}

/** start..end (inclusive) as whole months and the partial months around them; undefined without a whole month. */
export function splitByMonth(start: string, end: string): MonthSplit | undefined {
  const startsMonth = start.endsWith('-01');
  const endsMonth = end === lastDayOfMonth(end);
  const first = monthIndex(start) + (startsMonth ? 0 : 1);
  const last = monthIndex(end) - (endsMonth ? 0 : 1);
  if (first > last) return undefined;
  return {
    months: { first: monthText(first), last: monthText(last) },
    head: startsMonth ? undefined : { start, end: lastDayOfMonth(start) },
    tail: endsMonth ? undefined : { start: `${end.slice(0, 8)}01`, end },
  };
}
