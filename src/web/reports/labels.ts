// How a report row's value of a grouping is shown: a project by its name beside its slug,
// an activity by its name, a person by their display name beside their username (as the
// filters show them), the rest as the API writes them.
import type { ReportRow, User } from '../api';
import { activityName, type Catalog } from '../base/catalog';

/** Display names by username, for the rows of the people grouping. */
export type UserNames = ReadonlyMap<string, string>;

export const userNamesOf = (users: readonly User[]): UserNames =>
  new Map(users.flatMap((u) => (u.display_name ? [[u.username, u.display_name] as const] : [])));

/** How a row's value of a grouping is shown. */
export function groupLabel(
  row: ReportRow,
  grouping: string,
  catalog: Catalog | undefined,
  users: UserNames = new Map(),
): string {
  if (grouping === 'project') {
    const slug = row.project?.[0] ?? '';
    return row.project_name ? `${row.project_name} (${slug})` : slug;
  }
  if (grouping === 'activity')
    return catalog ? activityName(catalog.activities, row.activity ?? '') : (row.activity ?? '');
  if (grouping === 'user') {
    const username = row.user ?? '';
    const name = users.get(username);
    return name ? `${name} (${username})` : username;
  }
  return String(row[grouping as keyof ReportRow] ?? '');
}
