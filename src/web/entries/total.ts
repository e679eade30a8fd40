// The total duration of every entry the entries page's filters match, not only the page
// shown: GET /v0/reports takes the same filters (notes_contains too) and answers a total,
// but wants a range of at most five years. Without dates, the range is that of the
// matching entries themselves (the first and last by date worked: two one-entry lists),
// asked for in five-year pieces (nearly always one).
import { api, type Time, type TimesQuery } from '../api';
import { fromIsoDate, toIsoDate } from '../base/dates';

const YEARS_A_REPORT = 5;

export async function totalDuration(query: TimesQuery): Promise<number> {
  const edge = async (order: 'date_worked' | '-date_worked') =>
    ((await api.times({ ...query, order, limit: '1' })) as Time[])[0]?.date_worked;
  const start = query.start ?? (await edge('date_worked'));
  const end = query.end ?? (await edge('-date_worked'));
  if (!start || !end || start > end) return 0;
  const { limit: _l, skip: _s, order: _o, ...filters } = query;
  let sum = 0;
  for (let from = start; from <= end; ) {
    const d = fromIsoDate(from);
    d.setUTCFullYear(d.getUTCFullYear() + YEARS_A_REPORT);
    d.setUTCDate(d.getUTCDate() - 1);
    const last = toIsoDate(d);
    const to = last.localeCompare(end) < 0 ? last : end;
    const report = await api.report({ ...filters, start: from, end: to, group_by: ['user'] });
    sum += report.total.duration;
    const next = fromIsoDate(to);
    next.setUTCDate(next.getUTCDate() + 1);
    from = toIsoDate(next);
  }
  return sum;
}
