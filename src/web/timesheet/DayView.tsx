// The timesheet on a phone (below 600 px, issue 34): one day at a time instead of the
// week grid, which needed a sideways scroll there. Previous and next day (across weeks
// too), a strip of the week's seven days with their totals to jump to one, the day's
// and the week's totals, and each row's cell of that day full-width. The cells and the
// row names are the grid's own (Timesheet passes them in), so a cell does here what it
// does on a desktop: type a duration, Enter or leaving saves, ⋯ opens the day's entries.
import type { ComponentChildren } from 'preact';
import { formatWeek, fromIsoDate, isoWeekOf, shiftDay, today } from '../base/dates';
import { formatDuration } from '../base/duration';
import { WEEKDAYS } from '../base/week';
import { navigate } from '../router';
import type { Row } from './Timesheet';
import { dayUrl } from './useDay';

/** `Wednesday 31 January` in the browser's language (the date itself has no zone). */
function longDate(date: string): string {
  return fromIsoDate(date).toLocaleDateString(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
}

/** Shows another day: in the same week it replaces the URL (Back leaves the timesheet). */
function show(from: string, to: string) {
  const sameWeek = formatWeek(isoWeekOf(from)) === formatWeek(isoWeekOf(to));
  navigate(dayUrl(to), { replace: sameWeek });
}

export function DayView(props: {
  /** The week's dates, Monday first. */
  days: string[];
  /** The date shown, one of `days`. */
  day: string;
  rows: Row[];
  /** Each day's total (seconds), in the order of `days`. */
  dayTotals: number[];
  weekTotal: number;
  /** A row's name (project, activities, week part status), as the grid shows it. */
  rowHead: (row: Row) => ComponentChildren;
  /** A row's cell of one day (row index, date, weekday index), as the grid shows it. */
  cell: (row: Row, r: number, date: string, c: number) => ComponentChildren;
}) {
  const { days, day } = props;
  const c = days.indexOf(day);
  const isToday = day === today();
  return (
    <section class="day-view" aria-labelledby="day-view-heading">
      <div class="day-nav">
        <button
          type="button"
          class="day-step"
          aria-label="Previous day"
          onClick={() => show(day, shiftDay(day, -1))}
        >
          ‹
        </button>
        <h2 id="day-view-heading" aria-live="polite">
          {longDate(day)}
          {isToday && <span class="badge">Today</span>}
        </h2>
        <button
          type="button"
          class="day-step"
          aria-label="Next day"
          onClick={() => show(day, shiftDay(day, 1))}
        >
          ›
        </button>
      </div>
      <ol class="week-strip" aria-label="Days of the week">
        {days.map((d, i) => (
          <li key={d}>
            <button
              type="button"
              aria-pressed={d === day}
              class={d === today() ? 'today' : undefined}
              onClick={() => show(day, d)}
            >
              <span class="weekday">{WEEKDAYS[i]}</span>
              <span class="date">{Number(d.slice(8))}</span>
              <span class={props.dayTotals[i] ? 'hours' : 'hours zero'}>
                {formatDuration(props.dayTotals[i] ?? 0)}
                <span class="visually-hidden"> h</span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <dl class="day-totals">
        <div>
          <dt>Day total</dt>
          <dd>{formatDuration(props.dayTotals[c] ?? 0)}</dd>
        </div>
        <div>
          <dt>Week total</dt>
          <dd>{formatDuration(props.weekTotal)}</dd>
        </div>
      </dl>
      {props.rows.length === 0 ? (
        <p class="empty muted">Nothing booked this week yet: add a row below.</p>
      ) : (
        <ul class="day-rows">
          {props.rows.map((row, r) => (
            <li key={row.key} data-key={row.key}>
              <div class="row-head">{props.rowHead(row)}</div>
              {props.cell(row, r, day, c)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
