// Reports: totals of time entries grouped by project, activity, user, day, ISO week or
// month. Which entries count is decided by the times service (its filters and the
// caller's visibility, SPEC §3), so a report never counts an entry GET /times would not
// list; this service adds only what reports need on top: the required dates and the
// groupings.
import type { TextStream } from '../db/text-streams';
import { badQueryValue } from '../errors';
import type { Actor } from '../policy';
import type { TimeListFilters } from '../times/store';
import { GROUPINGS, type Grouping } from './json';
import type { ReportStore } from './store';

export type ReportService = ReturnType<typeof createReportService>;

/**
 * A report's body (the JSON of `ReportJson`, or its CSV): made already, in one piece,
 * or (a large one) to be read a piece at a time; `stream` opens it in a new snapshot.
 */
export type ReportBody = { whole: string } | { stream: () => TextStream };

export interface ReportServiceDeps {
  reports: ReportStore;
  /** The times service's filters: GET /times's parameters and the caller's visibility. */
  timeFilters: (actor: Actor, query: URLSearchParams) => TimeListFilters;
}

/** At most this many years from start to end. */
const MAX_YEARS = 5;

/**
 * Whether `end` is more than `years` after `start` (29 February + 1 year is 1 March).
 * Plain arithmetic on the YYYY-MM-DD texts: a Date past year 9999 writes `+010000-…`,
 * which sorts below `9995-…` as text, and refused every report from 9995 on.
 */
function isMoreYearsAfter(start: string, end: string, years: number): boolean {
  const year = Number(start.slice(0, 4)) + years;
  if (year > 9999) return false; // no date the API accepts is that late
  const y = String(year).padStart(4, '0');
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const later = start.slice(5) === '02-29' && !leap ? `${y}-03-01` : `${y}${start.slice(4)}`;
  return end > later;
}

/** 1–3 distinct groupings, in the order given; kind 11 names the first bad value. */
function groupByParam(query: URLSearchParams): Grouping[] {
  const values = query.getAll('group_by');
  if (values.length === 0) throw badQueryValue('group_by', '');
  const seen: Grouping[] = [];
  for (const v of values) {
    const g = GROUPINGS.find((name) => name === v);
    if (!g || seen.includes(g) || seen.length === 3) throw badQueryValue('group_by', v);
    seen.push(g);
  }
  return seen;
}

export function createReportService(deps: ReportServiceDeps) {
  return {
    /**
     * GET /reports: the filters of GET /times (same kind 11 errors, same visibility),
     * then `start` and `end` required (a missing one is kind 11 with an empty value) and
     * at most five years apart (kind 11 on `end`), then `group_by`. A report that reads
     * little is made at once; a large one is to be streamed (reports/store.ts readWhole).
     */
    report(actor: Actor, query: URLSearchParams, csv: boolean): ReportBody {
      const filters = { ...deps.timeFilters(actor, query), includeRevisions: false };
      const { start, end } = filters;
      if (start === undefined) throw badQueryValue('start', '');
      if (end === undefined) throw badQueryValue('end', '');
      if (isMoreYearsAfter(start, end, MAX_YEARS)) throw badQueryValue('end', end);
      const groupBy = groupByParam(query);
      const plan = deps.reports.plan({ ...filters, start, end }, groupBy, csv);
      const whole = deps.reports.readWhole(plan);
      return whole !== undefined ? { whole } : { stream: () => deps.reports.stream(plan.request) };
    },
  };
}
