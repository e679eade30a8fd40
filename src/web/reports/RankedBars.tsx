// The chart of a report grouped by project, activity or user: one bar per group, largest
// first. Bars are <meter> elements (no inline style, which the CSP forbids), labelled
// with their hours so the chart reads without colour or sight.
import { formatDuration } from '../base/duration';

export function RankedBars(props: { bars: { label: string; seconds: number }[] }) {
  const bars = [...props.bars].sort((a, b) => b.seconds - a.seconds);
  const max = bars[0]?.seconds ?? 0;
  return (
    <ol class="ranked" aria-label="Hours by group, largest first">
      {bars.map((b) => (
        <li key={b.label}>
          <span class="name">{b.label}</span>
          <meter
            min={0}
            max={max || 1}
            value={b.seconds}
            aria-label={`${b.label}: ${formatDuration(b.seconds)}`}
          />
          <span class="num">{formatDuration(b.seconds)}</span>
        </li>
      ))}
    </ol>
  );
}
