// Computes stale stored JSON in the background: projects' (projects/json-store.ts),
// marked stale by sql/008's triggers after another program's writes (this server's own
// writes compute theirs before they commit). A time entry's JSON is stored nowhere since
// sql/009. Kept general: each kind of stored JSON hands it `hasStale` and `fill`.
// Readers never wait for it (they compute a stale object's JSON themselves); it only
// makes those reads fast again. Small write transactions with the event loop free
// between them, so requests are answered meanwhile.
import type { Logger } from '../log';
import { type Db, WriteLockBusy, writeTransaction } from './open';

/** One kind of stored JSON, NULL where it is to be computed. */
export interface StoredJson {
  /** What the log line calls it ("project" → `project JSON filled`) and what it counts. */
  name: string;
  counted: string;
  /** Whether any is to be computed (one probe of a partial index). */
  hasStale(): boolean;
  /** Computes up to `limit` of them; answers how many it wrote. */
  fill(limit: number): number;
}

/** Objects per transaction: ~30 µs each, so one step holds the event loop a few ms. */
const BATCH = 200;
/** How often an idle filler looks for stale JSON (a probe of a partial index each). */
const IDLE_MS = 1000;
/** The pause between two batches: background work leaves most of the event loop to requests. */
const BATCH_PAUSE_MS = 10;

export interface JsonFiller {
  stop(): void;
}

export function startJsonFiller(db: Db, stores: readonly StoredJson[], log: Logger): JsonFiller {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // Per store: how many it has filled since it last had none stale, and since when.
  const runs = stores.map((store) => ({ store, count: 0, started: 0 }));
  /** One batch of the first store with stale JSON; whether that store has more. */
  const fillOne = (): boolean => {
    for (const run of runs) {
      const { store } = run;
      let wrote = 0;
      try {
        // The write lock is taken only when there is work: an idle server leaves it alone.
        if (store.hasStale()) wrote = writeTransaction(db, () => store.fill(BATCH));
      } catch (err) {
        // Another process holds the write lock: try again at the idle pace.
        if (err instanceof WriteLockBusy) return false;
        log.error(`filling ${store.name} JSON failed`, { error: (err as Error).message });
      }
      if (wrote > 0 && run.count === 0) run.started = performance.now();
      run.count += wrote;
      if (wrote === BATCH) return true;
      // A batch that was not full was the last one: on to the next store, or back to the
      // idle pace (also should a row ever stay NULL, so that it is not computed again and
      // again without a pause).
      if (run.count > 0) {
        const ms = Math.round(performance.now() - run.started);
        log.info(`${store.name} JSON filled`, { [store.counted]: run.count, ms });
        run.count = 0;
      }
    }
    return false;
  };
  const step = () => {
    if (stopped) return;
    timer = setTimeout(step, fillOne() ? BATCH_PAUSE_MS : IDLE_MS);
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
