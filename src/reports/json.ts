// A report as the API shows it (GET /v0/reports), as JSON and as CSV: the one place its
// shape is written. The rows come from SQL already grouped and summed (store.ts).
import { hoursText } from '../http/csv';

/** What a report can be grouped by, as `group_by` names it and its rows' keys. */
export const GROUPINGS = ['project', 'activity', 'user', 'day', 'week', 'month'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface Totals {
  /** seconds */
  duration: number;
  entries: number;
}

/** One group: a key per grouping (named as elsewhere in the API), then its totals. */
export interface ReportRowJson extends Totals {
  /** the project's slugs, as times show them */
  project?: string[];
  project_name?: string;
  /** an activity's slug */
  activity?: string;
  /** a username */
  user?: string;
  /** YYYY-MM-DD */
  day?: string;
  /** ISO 8601 week of date_worked, YYYY-Www (week-numbering year) */
  week?: string;
  /** YYYY-MM */
  month?: string;
}

export interface ReportJson {
  start: string;
  end: string;
  group_by: Grouping[];
  rows: ReportRowJson[];
  /** Every entry once, whatever the grouping (an entry counts under each of its activities). */
  total: Totals;
}

/** A row as the report statement returns it: one column per key, `project` as JSON text. */
export interface ReportRow extends Totals {
  project?: string;
  project_name?: string;
  activity?: string;
  user?: string;
  day?: string;
  week?: string;
  month?: string;
}

/** A row's API shape: the keys in group_by order (`project` then `project_name`), totals. */
export function toReportRowJson(row: ReportRow, groupBy: readonly Grouping[]): ReportRowJson {
  const out: Partial<ReportRowJson> = {};
  for (const g of groupBy) {
    if (g === 'project') {
      out.project = JSON.parse(row.project as string) as string[];
      out.project_name = row.project_name;
    } else {
      out[g] = row[g];
    }
  }
  out.duration = row.duration;
  out.entries = row.entries;
  return out as ReportRowJson;
}

/** The CSV of a report: one column per grouping (a project by its first slug), then totals. */
export function reportCsvLines(report: ReportJson): {
  header: string[];
  rows: (string | number | null)[][];
} {
  const header = [...report.group_by, 'hours', 'duration_seconds', 'entries'];
  const rows = report.rows.map((r) => [
    ...report.group_by.map((g) => (g === 'project' ? (r.project?.[0] ?? null) : (r[g] ?? null))),
    hoursText(r.duration),
    r.duration,
    r.entries,
  ]);
  return { header, rows };
}
