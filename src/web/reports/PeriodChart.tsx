// The chart of a report grouped by day, week or month: hours per period as bars, drawn
// by uPlot on a canvas (it styles through the CSSOM, which the CSP allows; its
// stylesheet is imported by app.css). The table beside it carries the same numbers for
// screen readers, so the canvas is one image with a summary.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const HEIGHT = 240;

function cssColor(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function PeriodChart(props: { labels: string[]; hours: number[]; summary: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const text = cssColor('--text', '#1d1d1f');
    const grid = cssColor('--border', '#c9c9d1');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: false, range: (_u, min, max) => [min - 0.6, max + 0.6] },
          // Bars stand on zero, or their heights would lie.
          y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
        },
        axes: [
          {
            ...axis,
            // Lines from each label up through its bar only add noise: the bar marks it.
            grid: { show: false },
            // Every label where they fit, else every k-th (a month of days on a phone).
            splits: (u: uPlot) => {
              const step = Math.ceil(props.labels.length / Math.max(1, u.width / 70));
              return props.labels.map((_, i) => i).filter((i) => i % step === 0);
            },
            values: (_u, splits) => splits.map((i) => props.labels[i] ?? ''),
          },
          { ...axis, label: 'hours', values: (_u, splits) => splits.map((h) => `${h}`) },
        ],
        series: [
          {},
          {
            label: 'hours',
            fill: cssColor('--accent', '#1f5fbf'),
            stroke: cssColor('--accent', '#1f5fbf'),
            paths: uPlot.paths.bars?.({ size: [0.7, 60] }),
            points: { show: false },
          },
        ],
      },
      [props.labels.map((_, i) => i), props.hours],
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: el.clientWidth, height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.labels.join(), props.hours.join()]);
  return <div class="period-chart" ref={box} role="img" aria-label={props.summary} />;
}
