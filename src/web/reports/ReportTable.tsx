// A report's rows as a table: one column per grouping, then hours and entries, and the
// total. Grouped by activity, an entry counts under each of its activities, so the rows
// may add up to more than the total (docs/api-reports.md); the table says so.
import type { Report } from '../api';
import type { Catalog } from '../base/catalog';
import { formatDuration } from '../base/duration';
import { ScrollBox } from '../base/ScrollBox';
import { groupLabel, type UserNames } from './labels';
import { GROUPINGS, isPeriod } from './settings';

export function ReportTable(props: {
  report: Report;
  catalog: Catalog | undefined;
  users: UserNames;
}) {
  const { report } = props;
  if (report.rows.length === 0) return <p class="muted">No entries in this range.</p>;
  return (
    <ScrollBox label="Report">
      <table class="list report">
        <caption class="visually-hidden">Hours by {report.group_by.join(' and ')}</caption>
        <thead>
          <tr>
            {report.group_by.map((g) => (
              <th scope="col" key={g}>
                {GROUPINGS[g]}
              </th>
            ))}
            <th scope="col" class="num">
              Hours
            </th>
            <th scope="col" class="num">
              Entries
            </th>
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row, i) => (
            <tr key={i}>
              {report.group_by.map((g) => (
                <td key={g} class={isPeriod(g) ? 'nowrap' : undefined}>
                  {groupLabel(row, g, props.catalog, props.users)}
                </td>
              ))}
              <td class="num">{formatDuration(row.duration)}</td>
              <td class="num">{row.entries}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={report.group_by.length}>
              Total
              {report.group_by.includes('activity') && (
                <span class="muted"> (an entry with several activities counts once)</span>
              )}
            </th>
            <td class="num">{formatDuration(report.total.duration)}</td>
            <td class="num">{report.total.entries}</td>
          </tr>
        </tfoot>
      </table>
    </ScrollBox>
  );
}
