// A report's settings, kept in the URL so a report is a link to share and the back
// button works: ?range=last-month (or start=&end= with range=custom), project=,
// activity=, user=, group=project&then=user. Ranges are counted in the browser's time
// zone from `today`.

import { daysOfWeek, fromIsoDate, isoWeekOf, shiftWeek, toIsoDate } from '../base/dates';
import type { Grouping, ReportQuery } from '../types';

export const RANGES = {
  'this-week': 'This week',
  'last-week': 'Last week',
  'this-month': 'This month',
  'last-month': 'Last month',
  'this-year': 'This year',
  custom: 'Custom',
} as const;
export type Range = keyof typeof RANGES;

export const GROUPINGS: Record<Grouping, string> = {
  project: 'Project',
  activity: 'Activity',
  user: 'User',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  status: 'Approval status',
};

export interface ReportSettings {
  range: Range;
  start: string;
  end: string;
  project: string;
  activity: string;
  user: string;
  group: Grouping;
  thenBy: Grouping | '';
}

const isRange = (v: string | null): v is Range => v !== null && v in RANGES;
const isGrouping = (v: string | null): v is Grouping => v !== null && v in GROUPINGS;

/** The first and last day of a preset range around `today` (YYYY-MM-DD). */
export function rangeDates(range: Exclude<Range, 'custom'>, today: string): [string, string] {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const monthStart = (year: number, month: number) =>
    toIsoDate(new Date(Date.UTC(year, month - 1, 1)));
  const monthEnd = (year: number, month: number) => toIsoDate(new Date(Date.UTC(year, month, 0)));
  switch (range) {
    case 'this-week': {
      const days = daysOfWeek(isoWeekOf(today));
      return [days[0] as string, days[6] as string];
    }
    case 'last-week': {
      const days = daysOfWeek(shiftWeek(isoWeekOf(today), -1));
      return [days[0] as string, days[6] as string];
    }
    case 'this-month':
      return [monthStart(y, m), monthEnd(y, m)];
    case 'last-month': {
      const last = new Date(fromIsoDate(monthStart(y, m)).getTime() - 86_400_000);
      return [monthStart(last.getUTCFullYear(), last.getUTCMonth() + 1), toIsoDate(last)];
    }
    case 'this-year':
      return [`${y}-01-01`, `${y}-12-31`];
  }
}

export function readSettings(query: URLSearchParams, today: string): ReportSettings {
  const asked = query.get('range');
  const range: Range = isRange(asked) ? asked : 'this-month';
  const [start, end] =
    range === 'custom'
      ? [query.get('start') ?? today, query.get('end') ?? today]
      : rangeDates(range, today);
  const group = query.get('group');
  const then = query.get('then');
  return {
    range,
    start,
    end,
    project: query.get('project') ?? '',
    activity: query.get('activity') ?? '',
    user: query.get('user') ?? '',
    group: isGrouping(group) ? group : 'project',
    thenBy: isGrouping(then) && then !== group ? then : '',
  };
}

export function settingsUrl(s: ReportSettings): string {
  const q = new URLSearchParams({ range: s.range });
  if (s.range === 'custom') {
    q.set('start', s.start);
    q.set('end', s.end);
  }
  if (s.project) q.set('project', s.project);
  if (s.activity) q.set('activity', s.activity);
  if (s.user) q.set('user', s.user);
  q.set('group', s.group);
  if (s.thenBy) q.set('then', s.thenBy);
  return `/reports?${q}`;
}

export function reportQuery(s: ReportSettings): ReportQuery {
  return {
    start: s.start,
    end: s.end,
    group_by: s.thenBy ? [s.group, s.thenBy] : [s.group],
    ...(s.project ? { project: [s.project] } : {}),
    ...(s.activity ? { activity: [s.activity] } : {}),
    ...(s.user ? { user: [s.user] } : {}),
  };
}

/**
 * The report the chart is drawn from, when the table's will not do: grouped by activity
 * second, an entry of several activities is in a row for each, so its project's (user's,
 * week's) rows added up would count it once per activity (GET /v0/reports counts it once
 * in a grouping without activity).
 */
export function chartQuery(s: ReportSettings): ReportQuery | undefined {
  if (s.thenBy !== 'activity') return undefined;
  return { ...reportQuery(s), group_by: [s.group] };
}

/** Groupings over time: their chart is hours per period. */
export const isPeriod = (g: Grouping) => g === 'day' || g === 'week' || g === 'month';
