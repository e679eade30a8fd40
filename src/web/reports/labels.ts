// How a report row's value of a grouping is shown: a project by its name, an activity
// by its name, the rest as the API writes them.
import type { ReportRow } from '../api';
import { activityName, type Catalog } from '../base/catalog';

/** How a row's value of a grouping is shown. */
export function groupLabel(row: ReportRow, grouping: string, catalog: Catalog | undefined): string {
  if (grouping === 'project') return row.project_name ?? row.project?.[0] ?? '';
  if (grouping === 'activity')
    return catalog ? activityName(catalog.activities, row.activity ?? '') : (row.activity ?? '');
  return String(row[grouping as keyof ReportRow] ?? '');
}
