// How far V8 lets the heap grow between collections, set by the server itself so that
// its memory stays small under load (docs/benchmarks.md, Memory). Node 20's single
// executable has no execArgv, and flags read only when the heap is set up
// (`--max-semi-space-size`) cannot be set later; these two are read each time V8 sizes
// a space, so set before anything else allocates they hold from the start. A side effect
// of importing this module: main.ts imports it first. Only for `serve` and `admin
// import-from`: the other one-shot commands (export of a million rows) keep V8's defaults.
//
// - Young generation: under thousands of requests a second V8 grows its semi-spaces
//   from 1 MB up to 16 MB each, and the pages they and glibc's freed memory leave
//   behind stay resident. A growth factor of 1 keeps them at their first size.
// - Old generation: after each full collection V8 sets the next one's threshold at up to
//   4 × what survived when collections are quick, which they are on a heap of ~11 MB:
//   under the first row of reads it let the heap reach 45 MB before collecting it back
//   to 11 (peak RSS 135–137 MB against 110–117 MB with 1.3 ×, three runs each, the same
//   req/s and CPU per request within noise).
//
// Starting a worker thread sets V8's flags again from the command line, which undoes
// these for the whole process (measured: a server that had spawned its bcrypt workers
// grew its young generation to 32 MB all the same, 16 MB more RSS under reads): so every
// worker thread of the server starts through startWorker, which sets them once more when
// the worker is online.
import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const ARGS = process.argv.slice(2);
const SERVE = ARGS.includes('serve');
const IMPORT = ARGS.includes('import-from');

/** The old generation's next limit: 1.3 × what survived the last full collection. */
const OLD_GENERATION_GROWTH_PERCENT = 30;

/**
 * Holds the young generation at its first size and the old one near what is live, in
 * `serve` and `admin import-from`.
 */
function keepHeapSmall(): void {
  // An import reads its file in pieces of 64 KiB (admin/import-from.ts): what a piece
  // makes is garbage before the next, so the young generation need not grow either —
  // measured on 100,000 rows, the same CPU time and 30–40 MB less peak RSS than with it
  // grown to 16 MB semi-spaces.
  if (SERVE || IMPORT) setFlagsFromString('--semi-space-growth-factor=1');
  if (SERVE || IMPORT) {
    setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  }
}

keepHeapSmall();

/** A worker thread (bcrypt, WAL checkpoints, short lists) that leaves the settings above in place. */
export function startWorker(source: string, options: WorkerOptions): Worker {
  const worker = new Worker(source, options);
  worker.once('online', keepHeapSmall);
  return worker;
}
