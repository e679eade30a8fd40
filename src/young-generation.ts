// V8's young generation, kept small by the server itself. Under a high allocation rate
// (thousands of requests a second) V8 grows its semi-spaces from 1 MB up to 16 MB each,
// and the pages they and glibc's freed memory leave behind stay resident (docs/
// benchmarks.md, Memory). `--max-semi-space-size` is read only when the heap is set up,
// which a single executable cannot ask for (Node 20's SEA config has no execArgv); the
// growth factor is read each time V8 would grow them, so set before anything else
// allocates it keeps them at their first size. A side effect of importing this module:
// main.ts imports it first, so it runs before the rest of the bundle is evaluated. Only
// for `serve`: the one-shot commands (export of a million rows) keep V8's default.
//
// Starting a worker thread sets V8's flags again from the command line, which undoes this
// one for the whole process (measured: a server that had spawned its bcrypt workers grew
// its young generation to 32 MB all the same, 16 MB more RSS under reads): so every
// worker thread of the server starts through startWorker, which sets it once more when
// the worker is online.
import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const SERVE = process.argv.slice(2).includes('serve');

/** Holds the young generation at its first size, in `serve` only. */
function keepYoungGenerationSmall(): void {
  if (SERVE) setFlagsFromString('--semi-space-growth-factor=1');
}

keepYoungGenerationSmall();

/** A worker thread (bcrypt, WAL checkpoints) that leaves the setting above in place. */
export function startWorker(source: string, options: WorkerOptions): Worker {
  const worker = new Worker(source, options);
  worker.once('online', keepYoungGenerationSmall);
  return worker;
}
