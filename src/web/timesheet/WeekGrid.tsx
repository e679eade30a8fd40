// The week as a grid (desktop; a phone gets DayView): a row per (project, activities), a
// cell per day, with row, day and week totals. The row heads and cells are the
// Timesheet's, shared with the day view.
import type { JSX } from 'preact';
import { formatDuration } from '../base/duration';
import { ScrollBox } from '../base/ScrollBox';
import { DayHeadings, TotalsRow } from '../base/week';
import type { Row } from './Timesheet';

export function WeekGrid(props: {
  username: string;
  days: string[];
  rows: Row[];
  rowHead: (row: Row) => JSX.Element;
  cell: (row: Row, r: number, date: string, c: number) => JSX.Element;
  rowTotal: (row: Row) => number;
  dayTotals: number[];
  weekTotal: number;
}) {
  const { days, rows } = props;
  return (
    <ScrollBox label="Timesheet" class="grid-scroll">
      <table class="grid">
        <caption>
          Hours of {props.username}, {days[0]} – {days[6]}
        </caption>
        <thead>
          <tr>
            <th scope="col">Project, activity</th>
            <DayHeadings days={days} />
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={9} class="empty">
                Nothing booked this week yet: add a row below.
              </td>
            </tr>
          )}
          {rows.map((row, r) => (
            <tr key={row.key} data-key={row.key}>
              <th scope="row">{props.rowHead(row)}</th>
              {days.map((d, c) => (
                <td key={d}>{props.cell(row, r, d, c)}</td>
              ))}
              <td class="total">{formatDuration(props.rowTotal(row))}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <TotalsRow
            label="Day total"
            days={days}
            dayTotals={props.dayTotals}
            weekTotal={props.weekTotal}
          />
        </tfoot>
      </table>
    </ScrollBox>
  );
}
