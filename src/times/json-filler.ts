// Computes stale time JSON (json-store.ts) in the background: every entry's after the
// migration that added the table, a project's entries after its slugs changed, an
// activity's after its slug did. Readers never wait for it (they compute a stale entry's
// JSON themselves); it only makes those reads fast again. Small write transactions with
// the event loop free between them, so requests are answered meanwhile.
import { type Db, WriteLockBusy, writeTransaction } from '../db/open';
import type { Logger } from '../log';
import type { TimeJsonStore } from './json-store';

/** Entries per transaction: ~30 µs each, so one step holds the event loop a few ms. */
const BATCH = 200;
/** How often an idle filler looks for stale entries (one probe of a partial index). */
const IDLE_MS = 1000;
/** The pause between two batches: background work leaves most of the event loop to requests. */
const BATCH_PAUSE_MS = 10;

export interface TimeJsonFiller {
  stop(): void;
}

export function startTimeJsonFiller(db: Db, store: TimeJsonStore, log: Logger): TimeJsonFiller {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let filled = 0;
  let started = 0;
  const step = () => {
    if (stopped) return;
    let wrote = 0;
    let busy = false;
    try {
      // The write lock is taken only when there is work: an idle server leaves it alone.
      if (store.hasStale()) wrote = writeTransaction(db, () => store.fill(BATCH));
    } catch (err) {
      // Another process holds the write lock: try again at the idle pace.
      busy = err instanceof WriteLockBusy;
      if (!busy) {
        log.error('filling time JSON failed', { error: (err as Error).message });
      }
    }
    if (wrote > 0 && filled === 0) started = performance.now();
    filled += wrote;
    // A batch that was not full was the last one: back to the idle pace (also should a
    // row ever stay NULL, so that it is not computed again and again without a pause).
    const more = wrote === BATCH;
    if (!more && !busy && filled > 0) {
      const ms = Math.round(performance.now() - started);
      log.info('time JSON filled', { entries: filled, ms });
      filled = 0;
    }
    timer = setTimeout(step, more ? BATCH_PAUSE_MS : IDLE_MS);
    timer.unref();
  };
  step();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
