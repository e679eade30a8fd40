// `serve`'s WAL checkpoints, on a worker thread with its own connection (checkpoint-
// worker.ts) instead of SQLite's automatic checkpoint in the writer. That one ran inside
// the COMMIT of every ~1,000th page written and waited for its fsync on the event loop:
// in-process on the 1,000,000-entry set, creates went from ~1,000–2,000/s to ~3,000/s
// without it (docs/benchmarks.md). PASSIVE checkpoints never block the writer or readers;
// the WAL is started over by the next write after one has copied everything, as before.
import { checkpointWorkerSource } from '../embedded';
import { startWorker } from '../heap-growth';
import type { Logger } from '../log';
import type { CheckpointMessage, CheckpointWorkerData } from './checkpoint-worker';
import { nativeBindingFile } from './native';
import type { Db } from './open';

/** How often the worker copies the WAL: ~1,000 pages at 2,000 creates/s. */
export const CHECKPOINT_INTERVAL_MS = 100;

/**
 * SQLite's automatic checkpoint length: given back to the writer should the worker fail,
 * and the WAL length at which the worker asks the writer for a pause.
 */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The writer's own checkpoint, as a backstop. The WAL starts over only at a write that
 * finds every frame copied, which a checkpoint running beside a steady stream of writes
 * seldom leaves behind: in a loop of creates the WAL grew to 900 MB with the writer's
 * checkpoints off. At 4,000 pages (16 MiB, JOURNAL_SIZE_LIMIT) the writer finishes the
 * job, copying the few frames the worker has not, and the next write starts the WAL over.
 */
export const WRITER_CHECKPOINT_PAGES = 4000;

export interface Checkpointer {
  /** Settles once the worker has its connection open (or has failed, or was stopped). */
  started: Promise<void>;
  /** Stops the worker (after its checkpoint in progress); the caller may then checkpoint. */
  stop(): Promise<void>;
}

/**
 * How long after start-up the worker is started: its thread loading the bundle and the
 * addon competed with the first answers (start-up to first /health, SPEC §9), ~50 ms on a
 * busy 2-core machine. Until then the writer checkpoints as SQLite does by default.
 */
export const CHECKPOINTER_DELAY_MS = 1000;

/**
 * In CHECKPOINTER_DELAY_MS, leaves the writer's automatic checkpoint a backstop and
 * starts the worker that makes the checkpoints. `hold` pauses the write queue
 * (db/write-queue.ts) until the promise it is given settles: the worker asks for that
 * when the WAL has grown without starting over.
 */
export function startCheckpointer(
  db: Db,
  file: string,
  log: Logger,
  hold: (until: Promise<void>) => void,
): Checkpointer {
  let spawned: Checkpointer | undefined;
  let settle = () => {};
  const started = new Promise<void>((resolve) => {
    settle = resolve;
  });
  let stopped = false;
  const timer = setTimeout(() => {
    checkpointWorkerSource().then(
      (source) => {
        if (stopped) return;
        spawned = spawnCheckpointer(db, file, log, hold, source);
        void spawned.started.then(settle);
      },
      (err: unknown) => {
        log.warn('WAL checkpoints stay in the writer', { why: String(err) });
        settle();
      },
    );
  }, CHECKPOINTER_DELAY_MS);
  timer.unref();
  return {
    started,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      settle();
      await spawned?.stop();
    },
  };
}

function spawnCheckpointer(
  db: Db,
  file: string,
  log: Logger,
  hold: (until: Promise<void>) => void,
  source: string,
): Checkpointer {
  const data: CheckpointWorkerData = {
    file,
    addonFile: nativeBindingFile(),
    intervalMs: CHECKPOINT_INTERVAL_MS,
    quietAfterPages: AUTOCHECKPOINT_PAGES,
  };
  db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
  const worker = startWorker(source, { eval: true, workerData: data });
  let ready = () => {};
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  let running = true;
  let release: (() => void) | undefined;
  const resume = () => {
    if (!release) return;
    release();
    release = undefined;
    if (running) worker.unref(); // once stopping, stop() keeps it referenced until it exits
  };
  // The WAL must not grow without end: whatever stops the worker hands its job back.
  const fallBack = (why: string) => {
    ready();
    resume();
    if (!running) return;
    running = false;
    log.warn('WAL checkpoints are back in the writer', { why });
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  worker.on('message', (msg: CheckpointMessage) => {
    if ('ready' in msg) {
      ready();
    } else if ('quiet' in msg) {
      if (release || !running) return;
      worker.ref(); // writes wait for its answer: it keeps the process alive meanwhile
      hold(
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      // No write is under way here (writes run whole within one turn of the event loop).
      worker.postMessage('quiet');
    } else if ('done' in msg) {
      resume();
    } else {
      fallBack(msg.error);
      void worker.terminate();
    }
  });
  worker.on('error', (err) => fallBack(err.message));
  worker.on('exit', () => fallBack('the checkpoint worker exited'));
  worker.unref();
  return {
    started,
    async stop() {
      ready();
      resume();
      if (!running) return;
      running = false;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.ref(); // waited for: it keeps the process alive until it has exited
      worker.postMessage('stop');
      await exited;
    },
  };
}
