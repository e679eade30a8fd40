// What every page of a week shares (the timesheet, its day view, Team week, approvals):
// the weekday names, the Previous / This week / Next navigation, a grid's day headings and
// its totals row.

import { onLinkClick } from '../router';
import { formatWeek, type IsoWeek, isoWeekOf, shiftWeek, today } from './dates';
import { formatDuration } from './duration';

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Previous and next week, and a link to this week (`thisWeekHref`). */
export function WeekNav(props: { week: IsoWeek; thisWeekHref: string; go: (w: IsoWeek) => void }) {
  const { week } = props;
  const current = formatWeek(isoWeekOf(today())) === formatWeek(week);
  return (
    <nav class="weeks" aria-label="Weeks">
      <button
        type="button"
        onClick={() => props.go(shiftWeek(week, -1))}
        aria-label="Previous week"
      >
        ‹ Previous
      </button>
      <a
        href={props.thisWeekHref}
        onClick={onLinkClick}
        aria-current={current ? 'page' : undefined}
      >
        This week
      </a>
      <button type="button" onClick={() => props.go(shiftWeek(week, 1))} aria-label="Next week">
        Next ›
      </button>
    </nav>
  );
}

/** A week grid's column headings, one per day (today marked). */
export function DayHeadings(props: { days: string[]; class?: string }) {
  return (
    <>
      {props.days.map((d, i) => {
        const classes = [props.class, d === today() ? 'today' : undefined].filter(Boolean);
        return (
          <th scope="col" key={d} class={classes.length > 0 ? classes.join(' ') : undefined}>
            <abbr title={d}>{WEEKDAYS[i]}</abbr> <span class="date">{d.slice(8)}</span>
          </th>
        );
      })}
    </>
  );
}

/**
 * A week table's footer row: its label, each day's total (dimmed when zero) and the
 * week's. `colSpan`: the columns the label takes; `dayClass`: the day cells' own class.
 */
export function TotalsRow(props: {
  label: string;
  colSpan?: number;
  days: string[];
  dayTotals: number[];
  weekTotal: number;
  dayClass?: string;
}) {
  const base = props.dayClass ? `${props.dayClass} total` : 'total';
  return (
    <tr>
      <th scope="row" colSpan={props.colSpan}>
        {props.label}
      </th>
      {props.days.map((d, i) => {
        const total = props.dayTotals[i] ?? 0;
        return (
          <td key={d} class={total ? base : `${base} zero`}>
            {formatDuration(total)}
          </td>
        );
      })}
      <td class="total week-total">{formatDuration(props.weekTotal)}</td>
    </tr>
  );
}
