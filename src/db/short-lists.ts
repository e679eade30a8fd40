// Short lists read whole on worker threads, each with a read-only connection of its own
// (short-list-worker.ts). One user's month is the list the web app and the clients ask
// for most; its ~0.8 ms of SQLite (sql/009 writes entries' JSON at read time) ran on the
// event loop, so 10 clients asking at once waited for each other's SQL as well as for
// each other's HTTP. On the workers the SQL of lists runs on every core while the event
// loop does only the HTTP (~0.25 ms a month): each list the event loop reads itself holds
// up every other response for ~0.8 ms.
//
// Each body (~170 KB for a month) is copied into one of a fixed set of slots of a buffer
// shared with the worker, sent from there, and its slot taken again once the response
// has closed. Handing the worker's own buffer over instead (transferred, not copied) cost
// ~50 MB of RSS: each was allocated in the worker's malloc arena and freed later by the
// event loop's garbage collector, and glibc kept the arena at its high-water mark
// (measured apart from the server, 6,000 months with 10 in flight: 143 MB against 89 MB
// on the event loop and 97 MB with the slots; docs/benchmarks.md).
//
// A worker is given at most LISTS_IN_FLIGHT lists at a time; the others wait in one queue
// on the event loop, oldest first, for whichever worker has room first (see below).
//
// The first worker starts once a short list has been read; another (up to the pool's
// size) once a list comes while every running worker has one in flight; each exits after
// 10 s without a list, so that its ~15–18 MB are held only while lists are read, and a
// second one only while lists come several at once. A list is read on the event loop
// instead, on a connection of the reader pool, while no worker is ready, when every slot
// is in use, when its body is larger than a slot (over ~800 entries), if the workers fail
// (from then on), and for whatever was in flight on a worker that stopped: never refused
// for their sake.

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { shortListWorkerSource } from '../embedded';
import { startWorker } from '../heap-growth';
import type { Logger } from '../log';
import { type ListQuery, readWholeList, type WholeList, type WholeListSql } from './list-reader';
import { nativeFiles } from './native';
import { inSnapshot, type ReaderPool } from './readers';
import type { ShortListReply, ShortListRequest, ShortListWorkerData } from './short-list-worker';

type ShortListQuery = ListQuery & { whole: WholeListSql };

export interface ShortLists {
  /**
   * The list as one JSON array when it has at most `cap` rows, in one snapshot; undefined
   * when it has more (the caller pages it). Call the answer's `sent` once its response
   * has closed.
   */
  read(query: ShortListQuery, cap: number): Promise<WholeList | undefined>;
  /** Lists asked for so far, by where they were read. */
  counts(): ShortListCounts;
  /** The workers: none there, one starting (none ready), or at least one reading lists. */
  state(): 'none' | 'starting' | 'running';
  /** Lists waiting in the queue for a worker with room (GET /metrics). */
  waiting(): number;
  /** Starts a worker unless one runs; settles once one reads lists (or cannot). */
  warmUp(): Promise<void>;
  /** Stops the workers for good; lists still asked for are read on the event loop. */
  stop(): Promise<void>;
}

/** Short lists read on a worker thread and on the event loop (GET /metrics). */
export interface ShortListCounts {
  worker: number;
  eventLoop: number;
}

/**
 * What happened (tests wait for these): a worker's own start and exit, and a list left
 * waiting in the queue (every ready worker had its lists in flight).
 */
export type ShortListEvent = 'ready' | 'exited' | 'waiting';

export interface ShortListOptions {
  /** Internal: how long a worker waits for a list before it exits (tests shorten it). */
  idleExitMs?: number;
  /** Internal: the most workers at once (default SHORT_LIST_WORKERS). */
  workers?: number;
  /** Internal: the most lists in flight on one worker (default LISTS_IN_FLIGHT). */
  inFlight?: number;
  /**
   * Internal (tests): each answer of a worker waits for this before it is handed on, and
   * its list counts as in flight on that worker meanwhile, so that a test can have its
   * client gone first, or have lists come while a worker has one in flight.
   */
  holdAnswers?: () => Promise<void>;
  onEvent?: (event: ShortListEvent) => void;
}

/**
 * Each worker exits after this long without a list, and starts again when lists come:
 * its V8 isolate and malloc arena (~15–18 MB of RSS) are held only while lists are asked
 * for, as the bcrypt workers' are only while logins are.
 */
export const SHORT_LIST_IDLE_EXIT_MS = 10_000;

/**
 * Workers at most: one per core, at least one. The event loop's own work per list (HTTP,
 * the token, the copy out of the slot) is a quarter of a worker's, so with one per core
 * the cores are shared by all of them rather than waiting on one.
 */
export const SHORT_LIST_WORKERS = Math.max(1, availableParallelism());

/**
 * Lists in flight on one worker at most: the one it reads and the next, so that it does
 * not wait for the event loop between two. Lists used to be sent to the worker with the
 * fewest in flight as soon as they were asked, where they queued in its port in turn:
 * when the worker's core was taken by something else for a while (the other worker, the
 * event loop, the clients), the four or five lists queued behind it waited for it while
 * the other worker could have read them. Side by side on this machine under the month
 * reads of the benchmark (five alternating turns of 8 s per build), the p99 went from
 * 18.6–25.1 ms (2.0–2.5 × the median) to 16.1–22.8 ms (1.8–2.0 ×) at the same lists per
 * second (849–1,112 against 819–1,149).
 */
export const LISTS_IN_FLIGHT = 2;

/**
 * The slots: 16 of 256 KiB (4 MiB, resident once used). A month is ~170 KB; 16 answers
 * read and not yet sent is more than a server's busy clients make at once.
 */
export const SLOT_BYTES = 256 * 1024;
export const SLOTS = 16;

/**
 * The statements of a list shape are sent to a worker once and named by a number after
 * that: copying their ~3 KB of text into every request was ~10 % of the event loop's
 * time under month reads. A store has a few dozen shapes; past this many, new ones are
 * sent whole each time.
 */
const MAX_SHAPES = 256;

/** A list asked for and not yet answered. */
interface Asked {
  query: ShortListQuery;
  cap: number;
  resolve: (list: WholeList | undefined) => void;
  reject: (err: unknown) => void;
}

/** A list in flight on a worker, its body to come in `slot`. */
interface InFlight extends Asked {
  slot: number;
}

/** A short list read on the event loop, in a snapshot of a connection of the pool. */
export const readShortHere = (readers: ReaderPool, query: ShortListQuery, cap: number) =>
  inSnapshot(readers, (reader) => readWholeList(reader.sql, query, cap));

/** Reads short lists on the event loop only (tests of a store, the in-process bench). */
export function shortListsHere(readers: ReaderPool): ShortLists['read'] {
  return async (query, cap) => readShortHere(readers, query, cap);
}

/** One worker thread of the pool, from its start to its exit. */
interface ListWorker {
  worker: Worker;
  /** Its connection is open and it is not exiting: lists may go to it. */
  ready: boolean;
  /** It has been ready (so it is not the worker being started). */
  started: boolean;
  /** It was told to exit for want of lists (not a failure). */
  retiring: boolean;
  inFlight: Map<number, InFlight>;
  /** The list shapes (below) this worker has been sent. */
  knows: Set<number>;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Starts a worker once a short list has been read (that list, and any asked before one is
 * ready, are read here), more while lists come several at once; each exits after
 * `idleExitMs` without a list.
 */
export function startShortLists(
  file: string,
  readers: ReaderPool,
  log: Logger,
  options: ShortListOptions = {},
): ShortLists {
  const here = shortListsHere(readers);
  const idleExitMs = options.idleExitMs ?? SHORT_LIST_IDLE_EXIT_MS;
  const most = options.workers ?? SHORT_LIST_WORKERS;
  const mostInFlight = options.inFlight ?? LISTS_IN_FLIGHT;
  const emit = (event: ShortListEvent) => options.onEvent?.(event);
  const slab = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  const freeSlots = Array.from({ length: SLOTS }, (_, i) => i);
  let nextId = 1;
  const workers = new Set<ListWorker>();
  /** Each list shape's number, by its statement's text. */
  const shapes = new Map<string, number>();
  const shapeOf = (whole: WholeListSql): number | undefined => {
    let shape = shapes.get(whole.bodySql);
    if (shape === undefined && shapes.size < MAX_SHAPES) {
      shape = shapes.size;
      shapes.set(whole.bodySql, shape);
    }
    return shape;
  };
  /** A worker is being started (its source read, its thread spawned, not yet ready). */
  let starting = false;
  /** Stopped, or a worker failed: lists are read here from now on. */
  let done = false;
  let readyWaiters: (() => void)[] = [];
  const settleWaiters = () => {
    for (const resolve of readyWaiters) resolve();
    readyWaiters = [];
  };

  /** No list in flight on `w`: it exits after idleExitMs unless one comes. */
  const armIdleExit = (w: ListWorker) => {
    clearTimeout(w.idleTimer);
    w.idleTimer = setTimeout(() => {
      if (w.inFlight.size > 0 || !w.ready) return;
      w.ready = false;
      w.retiring = true;
      w.worker.postMessage('stop');
    }, idleExitMs);
    w.idleTimer.unref();
  };

  /** `w` has exited: as asked (idle, stop), or not (a failure: read here for good). */
  const exited = (w: ListWorker, why: string) => {
    if (!workers.delete(w)) return;
    const failed = !w.retiring && !done;
    clearTimeout(w.idleTimer);
    if (failed) {
      done = true;
      log.warn('short lists are read on the event loop', { why });
    }
    for (const [id, job] of w.inFlight) {
      w.inFlight.delete(id);
      freeSlots.push(job.slot);
      readHere(job);
    }
    if (failed) for (const other of workers) other.worker.postMessage('stop');
    pump();
    settleWaiters();
    emit('exited');
  };

  const answered = (job: InFlight, msg: Exclude<ShortListReply, { ready: true }>) => {
    if ('length' in msg) {
      const { slot } = job;
      const body = Buffer.from(slab, slot * SLOT_BYTES, msg.length);
      job.resolve({ count: msg.count, body, sent: () => freeSlots.push(slot) });
      return;
    }
    freeSlots.push(job.slot);
    if ('error' in msg) job.reject(new Error(msg.error));
    else if ('long' in msg) job.resolve(undefined);
    else readHere(job); // larger than a slot
  };

  /** `w` has answered: the list is no longer in flight on it, and goes to its response. */
  const settle = (w: ListWorker, msg: Exclude<ShortListReply, { ready: true }>) => {
    const job = w.inFlight.get(msg.id);
    if (!job) return; // read on the event loop instead, as its worker had exited
    w.inFlight.delete(msg.id);
    pump(); // first, so that the worker has its next list while this one is sent
    if (w.inFlight.size === 0) {
      w.worker.unref();
      armIdleExit(w);
    }
    answered(job, msg);
  };

  const spawn = (code: string) => {
    const data: ShortListWorkerData = {
      file,
      ...nativeFiles(),
      slab,
      slotBytes: SLOT_BYTES,
    };
    const w: ListWorker = {
      worker: startWorker(code, { eval: true, workerData: data }),
      ready: false,
      started: false,
      retiring: false,
      inFlight: new Map(),
      knows: new Set(),
    };
    workers.add(w);
    w.worker.on('message', (msg: ShortListReply) => {
      if ('ready' in msg) {
        starting = false;
        w.started = true;
        w.ready = !done;
        settleWaiters();
        armIdleExit(w);
        pump();
        emit('ready');
        return;
      }
      if (options.holdAnswers) options.holdAnswers().then(() => settle(w, msg));
      else settle(w, msg);
    });
    const gone = (why: string) => {
      if (!w.started) starting = false;
      exited(w, why);
    };
    w.worker.on('error', (err) => gone(err.message));
    w.worker.on('exit', () => gone('a short-list worker exited'));
    w.worker.unref();
  };

  /** Starts one more worker unless one is starting, the pool is full, or it cannot. */
  const startOne = () => {
    if (done || starting || workers.size >= most) return;
    starting = true;
    shortListWorkerSource().then(
      (code) => {
        if (done) {
          starting = false;
          settleWaiters();
        } else spawn(code);
      },
      (err: unknown) => {
        starting = false;
        done = true;
        log.warn('short lists are read on the event loop', { why: String(err) });
        settleWaiters();
      },
    );
  };

  /** The ready worker with the fewest lists in flight. */
  const leastBusy = (): ListWorker | undefined => {
    let best: ListWorker | undefined;
    for (const w of workers) {
      if (w.ready && (!best || w.inFlight.size < best.inFlight.size)) best = w;
    }
    return best;
  };

  const counts = { worker: 0, eventLoop: 0 };
  /** Lists asked while every ready worker had `mostInFlight` of them, oldest first. */
  const queue: Asked[] = [];

  /** Reads `asked` on the event loop, in a snapshot of a connection of the pool. */
  function readHere(asked: Asked): void {
    here(asked.query, asked.cap).then(asked.resolve, asked.reject);
  }

  /**
   * Hands the queued lists, oldest first, to the ready workers with room. With no worker
   * left (stopped, failed, every one exited) they are read here; while one is starting
   * they wait for it.
   */
  function pump(): void {
    while (queue.length > 0) {
      const w = leastBusy();
      if (!w) {
        if (done || workers.size === 0) {
          for (const asked of queue.splice(0)) {
            counts.eventLoop++;
            readHere(asked);
          }
        }
        return;
      }
      if (w.inFlight.size >= mostInFlight) return;
      dispatch(w, queue.shift() as Asked);
    }
  }

  /**
   * Sends `asked` to `w`, its body to come in a free slot. With every slot in use it is
   * read here: the event loop is better kept to the HTTP of lists (~0.3 ms each) than made
   * to read one (~0.8 ms, during which every other response waits), but a list is never
   * held up for want of a slot (clients slow to take their answers hold them).
   */
  function dispatch(w: ListWorker, asked: Asked): void {
    const slot = freeSlots.pop();
    if (slot === undefined) {
      counts.eventLoop++;
      readHere(asked);
      return;
    }
    clearTimeout(w.idleTimer);
    counts.worker++;
    const id = nextId++;
    const { query, cap } = asked;
    const shape = shapeOf(query.whole);
    const known = shape !== undefined && w.knows.has(shape);
    if (shape !== undefined) w.knows.add(shape);
    const request: ShortListRequest = {
      id,
      shape,
      whole: known ? undefined : query.whole,
      params: query.params,
      cap,
      slot,
    };
    w.inFlight.set(id, { ...asked, slot });
    w.worker.ref(); // an answer is awaited: it keeps the process alive meanwhile
    w.worker.postMessage(request);
  }

  return {
    async read(query, cap) {
      const w = leastBusy();
      // Every running worker has a list in flight: lists come several at once.
      if (workers.size > 0 && (!w || w.inFlight.size > 0)) startOne();
      if (!w) {
        // Only a list found short here starts a worker: a run of long lists (whole
        // exports, streamed) would start one for nothing.
        counts.eventLoop++;
        const list = await here(query, cap);
        if (list && workers.size === 0) startOne();
        return list;
      }
      return new Promise((resolve, reject) => {
        queue.push({ query, cap, resolve, reject });
        pump();
        if (queue.length > 0) emit('waiting');
      });
    },
    counts: () => ({ ...counts }),
    waiting: () => queue.length,
    state() {
      for (const w of workers) if (w.ready) return 'running';
      return workers.size > 0 || starting ? 'starting' : 'none';
    },
    warmUp() {
      if (done || [...workers].some((w) => w.ready)) return Promise.resolve();
      const settled = new Promise<void>((resolve) => readyWaiters.push(resolve));
      if (workers.size === 0) startOne();
      return settled;
    },
    async stop() {
      done = true;
      settleWaiters();
      const running = [...workers];
      for (const w of running) w.ready = false;
      pump(); // with no worker ready and `done`, the queued lists are read here
      await Promise.all(
        running.map((w) => {
          clearTimeout(w.idleTimer);
          w.retiring = true;
          const gone = new Promise<void>((resolve) => w.worker.once('exit', () => resolve()));
          w.worker.ref();
          w.worker.postMessage('stop');
          return gone;
        }),
      );
    },
  };
}
