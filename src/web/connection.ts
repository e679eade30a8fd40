// Whether the server can be reached. A request that cannot reach it (no network, the
// server restarting) waits here instead of failing: the app shows a banner with Retry
// (main.tsx), and the waiting requests are sent again when the user retries or the
// browser says it is online again — so what was typed is saved, not lost.

type Listener = (lost: boolean) => void;
const listeners = new Set<Listener>();
let waiting: { promise: Promise<void>; resolve: () => void } | undefined;

export function onConnectionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Resolves when the user (or the browser) says to try again. */
export function waitForConnection(): Promise<void> {
  if (!waiting) {
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    waiting = { promise, resolve };
    for (const l of listeners) l(true);
  }
  return waiting.promise;
}

/** Sends the waiting requests again (a failing one comes back here). */
export function retryNow(): void {
  const w = waiting;
  waiting = undefined;
  for (const l of listeners) l(false);
  w?.resolve();
}

addEventListener('online', retryNow);
