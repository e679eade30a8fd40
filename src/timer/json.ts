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
