// A report (SPEC §11, docs/api-reports.md): totals of time entries, grouped. A row's
// keys depend on the grouping, so all but its totals are optional.
import { WEEK_PART_STATUSES } from './approval';
import { CalendarDate } from './common';
import { array, component, type Infer, integer, oneOfValues, shown, string } from './kit';

/** What a report can be grouped by, as `group_by` names it and its rows' keys. */
export const GROUPINGS = ['project', 'activity', 'user', 'day', 'week', 'month', 'status'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export const GroupBy = component('GroupBy', oneOfValues(GROUPINGS));

/** Seconds and entries: sums, so not bounded as one entry's duration is. */
const totals = {
  duration: integer({ minimum: 0 }),
  entries: integer({ minimum: 0 }),
};

export const ReportRow = component(
  'ReportRow',
  shown(
    {
      project: array(string(), { description: "The project's slugs" }),
      project_name: string(),
      activity: string(), // an activity's slug
      user: string(), // a username
      day: string({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      // the ISO 8601 week of date_worked (week-numbering year)
      week: string({
        pattern: '^-?\\d{4}-W\\d{2}$',
        description: 'ISO 8601 week; 0000-01-01 and 02 are in -0001-W52',
      }),
      month: string({ pattern: '^\\d{4}-\\d{2}$' }),
      // the status of the entries' week part (issue 32)
      status: oneOfValues(WEEK_PART_STATUSES),
      ...totals,
    },
    ['project', 'project_name', 'activity', 'user', 'day', 'week', 'month', 'status'],
    { description: 'One key per grouping, then the totals of the entries in that group' },
  ),
);
export type ReportRow = Infer<typeof ReportRow>;

export const Report = component(
  'Report',
  shown({
    start: CalendarDate.ref,
    end: CalendarDate.ref,
    group_by: array(GroupBy.ref, { minItems: 1, maxItems: 3 }),
    rows: array(ReportRow.ref),
    /** Every entry once, whatever the grouping (an entry counts under each of its activities). */
    total: shown(totals),
  }),
);
export type Report = Infer<typeof Report>;
