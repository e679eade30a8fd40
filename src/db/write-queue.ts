// Groups the writes that arrive in one turn of the event loop into one transaction. A
// write transaction's fixed cost (BEGIN IMMEDIATE, the COMMIT's WAL frames) was about half
// of a time entry's create (docs/benchmarks.md); with several requests in flight, one
// COMMIT now carries all of them. Each write runs in its own savepoint, so one that fails
// (a SPEC §7 error, or a bug) rolls back only itself, and each promise settles only after
// the COMMIT: nobody is told "done" before their data is in the database.
import { type Db, writeTransaction } from './open';

export type WriteQueue = ReturnType<typeof createWriteQueue>;

interface Job {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createWriteQueue(db: Db) {
  let pending: Job[] = [];
  let scheduled = false;
  let held: Promise<void> | undefined;

  const schedule = () => {
    if (scheduled || held || pending.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  };

  const flush = () => {
    scheduled = false;
    if (held) return; // flushed once released
    const jobs = pending;
    pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = writeTransaction(db, () =>
        jobs.map((job): Outcome => {
          try {
            return { ok: true, value: writeTransaction(db, job.write) };
          } catch (error) {
            // An error SQLite answers by rolling the whole transaction back (disk full,
            // I/O) must not leave the rest of the batch to run outside one.
            if (!db.inTransaction) throw error;
            return { ok: false, error };
          }
        }),
      );
    } catch (error) {
      // Nothing of the batch was written (WriteLockBusy included: each caller may retry).
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  };

  return {
    /**
     * Runs `write` (synchronous, its own writeTransaction being a savepoint here) with
     * the other writes queued in this turn of the event loop, in one transaction;
     * settles with its result or its error once that transaction is committed.
     */
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },

    /**
     * Runs no queued write until `until` settles (they wait, the event loop does not):
     * the moment without writes a checkpoint needs to copy the whole WAL (checkpointer.ts).
     */
    hold(until: Promise<void>): void {
      const hold = until.then(
        () => {},
        () => {},
      );
      held = hold;
      void hold.then(() => {
        if (held !== hold) return;
        held = undefined;
        schedule();
      });
    },
  };
}
