// The running timer as the whole page knows it: the header's Timer shows it and keeps it
// in step with the server; a timesheet row's Start button (RowTimer) starts one and
// announces it here, so the header shows it at once, and reads here whether one runs.
import { useEffect, useState } from 'preact/hooks';
import type { Timer } from '../api';

/** undefined: not known yet; null: none runs. */
let current: Timer | null | undefined;
const listeners = new Set<(timer: Timer | null) => void>();

/** Tells every part of the page that this timer now runs (null: none). */
export function timerChanged(timer: Timer | null): void {
  current = timer;
  for (const l of listeners) l(timer);
}

export function onTimerChange(listener: (timer: Timer | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The running timer, re-rendering when it starts or stops. */
export function useRunningTimer(): Timer | null | undefined {
  const [timer, setTimer] = useState(current);
  useEffect(() => {
    setTimer(current);
    return onTimerChange(setTimer);
  }, []);
  return timer;
}
