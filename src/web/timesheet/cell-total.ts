// What typing a new day total into a timesheet cell does (issue 34). A cell shows the sum
// of its entries; with one entry or none the typed total is that entry, as always. With
// several, the cell stays typeable: the most recent entry takes the difference, so one
// entry is written and the others stay as they are; never below zero — then nothing is
// written and the cell's list opens with the reason.
import type { Time } from '../api';
import { formatDuration } from '../base/duration';

export type CellChange =
  | { do: 'nothing' }
  | { do: 'create'; seconds: number }
  | { do: 'update'; entry: Time; seconds: number }
  | { do: 'delete'; entry: Time }
  /** Nothing is written: the cell's entries are listed with this reason. */
  | { do: 'list'; reason: string };

/**
 * The most recently changed of a cell's entries: the latest `updated_at` (else
 * `created_at`) date; on the same day, the later in the list, which the server sends
 * in order of last change and which keeps an entry in its place when it changes here.
 */
export function mostRecent(entries: readonly Time[]): Time | undefined {
  let best: Time | undefined;
  for (const t of entries) {
    if (!best || (t.updated_at ?? t.created_at) >= (best.updated_at ?? best.created_at)) best = t;
  }
  return best;
}

/** The write that makes a cell holding `entries` total `seconds` (null: emptied). */
export function cellChange(entries: readonly Time[], seconds: number | null): CellChange {
  const total = entries.reduce((n, t) => n + t.duration, 0);
  const wanted = seconds ?? 0;
  const entry = mostRecent(entries);
  if (!entry) return wanted === 0 ? { do: 'nothing' } : { do: 'create', seconds: wanted };
  if (wanted === total) return { do: 'nothing' };
  if (entries.length === 1) {
    return wanted === 0 ? { do: 'delete', entry } : { do: 'update', entry, seconds: wanted };
  }
  const next = entry.duration + (wanted - total);
  if (next < 0) {
    return {
      do: 'list',
      reason:
        `A total of ${formatDuration(wanted)} would take the most recent entry ` +
        `(${formatDuration(entry.duration)}) below zero: the other entries hold ` +
        `${formatDuration(total - entry.duration)}. Change or delete them here.`,
    };
  }
  // Emptied to nothing, the most recent entry goes, as an emptied one-entry cell's does.
  return next === 0 ? { do: 'delete', entry } : { do: 'update', entry, seconds: next };
}
