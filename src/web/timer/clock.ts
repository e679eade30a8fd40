// The running time of a timer, counted on this device from the server's `elapsed` (not
// from `started_at`, so a device whose clock is off still shows the right time).

/** `h:mm:ss` */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${mm}:${ss}`;
}

/** The moment (this device's ms clock) the timer started, given `elapsed` now. */
export function startedAtLocal(elapsed: number): number {
  return Date.now() - elapsed * 1000;
}
