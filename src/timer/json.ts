// A running timer → the API object (docs/api-timer.md), whose shape is
// src/shapes/timer.ts. `project` and `activities` are shown as on a time entry (all the
// project's slugs; activity slugs, sorted); `started_at` is an instant, not a calendar date.
import { formatTimestamp } from '../dates';
import type { Timer } from '../shapes/timer';
import type { StoredTimer } from './store';

export type TimerJson = Timer;

/** Whole seconds from start to now; never negative (a clock set back). */
export const elapsedSeconds = (startedAt: number, now: number): number =>
  Math.max(0, Math.floor((now - startedAt) / 1000));

/**
 * A timer's duration in seconds: the time from start to stop rounded to the nearest
 * multiple of `step` seconds (half a step rounds up); 0 under one step. A clock set back
 * counts as no time.
 */
export const roundedDuration = (startedAt: number, stoppedAt: number, step: number): number => {
  const ms = Math.max(0, stoppedAt - startedAt);
  if (ms < step * 1000) return 0;
  return Math.round(ms / (step * 1000)) * step;
};

export function toTimerJson(row: StoredTimer, now: number): TimerJson {
  return {
    project: JSON.parse(row.project) as string[],
    activities: JSON.parse(row.activities) as string[],
    notes: row.notes,
    issue_uri: row.issue_uri,
    date_worked: row.date_worked,
    started_at: formatTimestamp(row.started_at),
    elapsed: elapsedSeconds(row.started_at, now),
  };
}
