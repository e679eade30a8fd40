// Runs inside a worker thread: the WAL checkpoints of `serve` (db/checkpointer.ts). A
// checkpoint copies the WAL's pages into the database file and waits for fsync; run by
// the writer (SQLite's automatic checkpoint, every 1,000 pages) that wait fell on the
// event loop in the middle of a request, about two thirds of what a create cost.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { loadAddon } from './native';

export interface CheckpointWorkerData {
  file: string;
  /** better-sqlite3's native addon, loaded from this file (the bundle cannot find it). */
  addonFile: string;
  intervalMs: number;
  /** A WAL this long has not been started over: ask for a moment without writes. */
  quietAfterPages: number;
}

/**
 * From the worker: `ready` once its connection is open, `quiet` asks the writer to pause,
 * `done` lets it go on.
 */
export type CheckpointMessage =
  | { ready: true }
  | { quiet: true }
  | { done: true }
  | { error: string };

const { file, addonFile, intervalMs, quietAfterPages } = workerData as CheckpointWorkerData;
// Not openDatabase: this connection only checkpoints, with none of the others' pragmas,
// and needs no extension.
const db = new Database(file, {
  fileMustExist: true,
  nativeBinding: loadAddon(addonFile) as never,
});
db.pragma('synchronous = NORMAL');
// PASSIVE never waits for readers or the writer: it copies what it can and returns, so a
// checkpoint with nothing new to copy costs a look at the WAL index.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const post = (msg: CheckpointMessage) => parentPort?.postMessage(msg);
post({ ready: true });

/** Copies the WAL into the file; answers how many pages the WAL holds. */
function copy(): number {
  return (checkpoint.get() as { log: number }).log;
}

let asked = false;
const timer = setInterval(() => {
  try {
    // The WAL starts over only at a write that finds all of it copied, which a copy made
    // beside a steady stream of writes seldom leaves: then the writer pauses for one.
    if (copy() >= quietAfterPages && !asked) {
      asked = true;
      post({ quiet: true });
    }
  } catch (err) {
    clearInterval(timer);
    post({ error: err instanceof Error ? err.message : String(err) });
  }
}, intervalMs);

parentPort?.on('message', (msg: 'quiet' | 'stop') => {
  if (msg === 'quiet') {
    // The writer is paused: this copy reaches the end of the WAL.
    try {
      copy();
    } finally {
      asked = false;
      post({ done: true });
    }
  } else if (msg === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort?.close();
  }
});
