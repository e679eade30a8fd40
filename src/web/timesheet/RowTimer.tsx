// A timesheet row's timer button (issue 34): starts the timer on the row's project and
// activities, for today. The header's Timer shows it and stops it; the stop adds its time
// to the row's entry of the day when there is exactly one (docs/api-timer.md#stopping).
// While a timer runs the buttons rest, and the row it runs on says so.
import { useState } from 'preact/hooks';
import { api, errorText } from '../api';
import { timerChanged, useRunningTimer } from '../timer/running';
import type { Row } from './Timesheet';

/** The same activities, in any order (a row's are sorted, Timesheet.tsx rowFor). */
const sameSet = (a: readonly string[], sorted: readonly string[]) =>
  a.length === sorted.length && [...a].sort().every((x, i) => x === sorted[i]);

export function RowTimer(props: { row: Row; onError: (text: string | undefined) => void }) {
  const { row } = props;
  const running = useRunningTimer();
  const [busy, setBusy] = useState(false);
  const here =
    running?.project.includes(row.project) && sameSet(running.activities, row.activities);
  const name = `${row.projectName}, ${row.activityNames}`;

  const start = async () => {
    setBusy(true);
    props.onError(undefined);
    try {
      timerChanged(
        await api.startTimer({ project: row.project, activities: row.activities, notes: null }),
      );
    } catch (err) {
      props.onError(`Start timer on ${name}: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  if (here) {
    return (
      <span class="row-timer running-here">
        <span class="dot" aria-hidden="true" /> Timer running
      </span>
    );
  }
  return (
    <button
      type="button"
      class="row-timer"
      aria-label={`Start timer on ${name}`}
      title={running ? 'A timer is running: stop it above first' : `Start timer on ${name}`}
      disabled={running !== null || busy}
      onClick={start}
    >
      <span aria-hidden="true">▶</span> Timer
    </button>
  );
}
