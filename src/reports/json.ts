// A report → the API object (GET /v0/reports), whose shape is src/shapes/report.ts, and
// its CSV. The rows come from SQL already grouped and summed (store.ts).
import { hoursText } from '../http/csv';
import type { Grouping, Report, ReportRow as ReportRowJson } from '../shapes/report';

export { GROUPINGS, type Grouping } from '../shapes/report';
export type { ReportRowJson };
export type ReportJson = Report;

/** Every entry once, whatever the grouping (an entry counts under each of its activities). */
export type Totals = Report['total'];

/**
 * A row as the report statement returns it: one column per key of the API's row,
 * `project` as JSON text.
 */
export type ReportRow = Omit<ReportRowJson, 'project'> & {
  project?: string;
  /** The user's display name (CSV only). */
  user_name?: string | null;
};

/** A row's API shape: the keys in group_by order (`project` then `project_name`), totals. */
export function toReportRowJson(row: ReportRow, groupBy: readonly Grouping[]): ReportRowJson {
  const out: Partial<ReportRowJson> = {};
  for (const g of groupBy) {
    if (g === 'project') {
      out.project = JSON.parse(row.project as string) as string[];
      out.project_name = row.project_name;
    } else {
      (out as Record<string, unknown>)[g] = row[g];
    }
  }
  out.duration = row.duration;
  out.entries = row.entries;
  return out as ReportRowJson;
}

/** A grouping's CSV columns: a project and a user with their names beside them. */
const csvColumns = (g: Grouping): string[] =>
  g === 'project' ? ['project', 'project_name'] : g === 'user' ? ['user', 'user_name'] : [g];

/** The CSV header of a report: a column per grouping (two for project and user), totals. */
export const reportCsvHeader = (groupBy: readonly Grouping[]): string[] => [
  ...groupBy.flatMap(csvColumns),
  'hours',
  'duration_seconds',
  'entries',
];

/**
 * A row's CSV cells: a project by its first slug and its name, a user by username and
 * display name (`userName`, from the statement's row), then totals.
 */
export function reportCsvCells(
  row: ReportRowJson,
  groupBy: readonly Grouping[],
  userName: string | null | undefined,
): (string | number | null)[] {
  return [
    ...groupBy.flatMap((g) =>
      g === 'project'
        ? [row.project?.[0] ?? null, row.project_name ?? null]
        : g === 'user'
          ? [row.user ?? null, userName ?? null]
          : [row[g] ?? null],
    ),
    hoursText(row.duration),
    row.duration,
    row.entries,
  ];
}
