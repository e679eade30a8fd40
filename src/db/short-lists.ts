// Short lists read whole on a worker thread with a read-only connection of its own
// (short-list-worker.ts). One user's month is the list the web app and the clients ask
// for most; its ~0.4 ms of SQLite ran on the event loop, so 10 clients asking at once
// waited for each other's SQL as well as for each other's HTTP. On the worker the SQL of
// one list runs on a second core while the event loop answers others.
//
// Each body (~170 KB for a month) is copied into one of a fixed set of slots of a buffer
// shared with the worker, sent from there, and its slot taken again once the response
// has closed. Handing the worker's own buffer over instead (transferred, not copied) cost
// ~50 MB of RSS: each was allocated in the worker's malloc arena and freed later by the
// event loop's garbage collector, and glibc kept the arena at its high-water mark
// (measured apart from the server, 6,000 months with 10 in flight: 143 MB against 89 MB
// on the event loop and 97 MB with the slots; docs/benchmarks.md).
//
// The worker starts once a short list has been read and exits after 10 s without a list,
// so that its ~15–18 MB are held only while lists are read. A list is read on the event
// loop instead, on a connection of the reader pool, while the worker is starting,
// when every slot is in use, when the worker has WORKER_QUEUE lists already, when its
// body is larger than a slot (over ~800 entries), if
// the worker fails (from then on), and for whatever was in flight when it stopped: never
// refused for its sake.

import type { Worker } from 'node:worker_threads';
import { shortListWorkerSource } from '../embedded';
import { startWorker } from '../heap-growth';
import type { Logger } from '../log';
import { type ListQuery, readWholeList, type WholeList, type WholeListSql } from './list-reader';
import { nativeBindingFile } from './native';
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
  /** The worker: not there, starting, or reading lists. */
  state(): 'none' | 'starting' | 'running';
  /** Starts the worker unless it runs; settles once it reads lists (or cannot). */
  warmUp(): Promise<void>;
  /** Stops the worker for good; lists still asked for are read on the event loop. */
  stop(): Promise<void>;
}

/** What the worker did (tests wait for these). */
export type ShortListEvent = 'ready' | 'exited';

export interface ShortListOptions {
  /** Internal: how long the worker waits for a list before it exits (tests shorten it). */
  idleExitMs?: number;
  onEvent?: (event: ShortListEvent) => void;
}

/**
 * The worker exits after this long without a list, and starts again with the next one:
 * its V8 isolate and malloc arena (~15–18 MB of RSS) are held only while lists are asked
 * for, as the bcrypt workers' are only while logins are.
 */
export const SHORT_LIST_IDLE_EXIT_MS = 10_000;

/**
 * The slots: 16 of 256 KiB (4 MiB, resident once used). A month is ~170 KB; 16 answers
 * read and not yet sent is more than a server's busy clients make at once.
 */
export const SLOT_BYTES = 256 * 1024;
export const SLOTS = 16;

/**
 * Lists given to the worker at most at once: with one reading and one waiting it is
 * busy, so the next list is read on the event loop, and both cores write lists' JSON
 * (a month is ~0.8 ms of SQLite since entries' JSON is written at read time, sql/009).
 */
export const WORKER_QUEUE = 2;

interface Waiting {
  query: ShortListQuery;
  cap: number;
  slot: number;
  resolve: (list: WholeList | undefined) => void;
  reject: (err: unknown) => void;
}

/** A short list read on the event loop, in a snapshot of a connection of the pool. */
export const readShortHere = (readers: ReaderPool, query: ShortListQuery, cap: number) =>
  inSnapshot(readers, (reader) => readWholeList(reader.sql, query, cap));

/** Reads short lists on the event loop only (tests of a store, the in-process bench). */
export function shortListsHere(readers: ReaderPool): ShortLists['read'] {
  return async (query, cap) => readShortHere(readers, query, cap);
}

/**
 * Starts the worker once a short list has been read (that list, and any asked before the
 * worker is ready, are read here); it exits after `idleExitMs` without a list.
 */
export function startShortLists(
  file: string,
  readers: ReaderPool,
  log: Logger,
  options: ShortListOptions = {},
): ShortLists {
  const here = shortListsHere(readers);
  const idleExitMs = options.idleExitMs ?? SHORT_LIST_IDLE_EXIT_MS;
  const emit = (event: ShortListEvent) => options.onEvent?.(event);
  const waiting = new Map<number, Waiting>();
  const slab = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  const freeSlots = Array.from({ length: SLOTS }, (_, i) => i);
  let nextId = 1;
  let worker: Worker | undefined;
  /** The worker has its connection open and is not exiting: lists may go to it. */
  let ready = false;
  /** It was told to exit for want of lists (not a failure). */
  let retiring = false;
  /** Stopped, or the worker failed: lists are read here from now on. */
  let done = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let readyWaiters: (() => void)[] = [];
  const settleWaiters = () => {
    for (const resolve of readyWaiters) resolve();
    readyWaiters = [];
  };
  let source: Promise<string> | undefined;

  /** No list in flight: the worker exits after idleExitMs unless one comes. */
  const armIdleExit = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (!worker || waiting.size > 0) return;
      ready = false;
      retiring = true;
      worker.postMessage('stop');
    }, idleExitMs);
    idleTimer.unref();
  };

  /** The worker has exited: as asked (idle, stop), or not (a failure: read here for good). */
  const exited = (why: string) => {
    if (!worker) return;
    const failed = !retiring && !done;
    worker = undefined;
    ready = false;
    retiring = false;
    clearTimeout(idleTimer);
    if (failed) {
      done = true;
      log.warn('short lists are read on the event loop', { why });
    }
    for (const [id, w] of waiting) {
      waiting.delete(id);
      freeSlots.push(w.slot);
      here(w.query, w.cap).then(w.resolve, w.reject);
    }
    settleWaiters();
    emit('exited');
  };

  const answered = (w: Waiting, msg: Exclude<ShortListReply, { ready: true }>) => {
    if ('length' in msg) {
      const { slot } = w;
      const body = Buffer.from(slab, slot * SLOT_BYTES, msg.length);
      w.resolve({ count: msg.count, body, sent: () => freeSlots.push(slot) });
      return;
    }
    freeSlots.push(w.slot);
    if ('error' in msg) w.reject(new Error(msg.error));
    else if ('long' in msg) w.resolve(undefined);
    else here(w.query, w.cap).then(w.resolve, w.reject); // larger than a slot
  };

  const spawn = (code: string) => {
    const data: ShortListWorkerData = {
      file,
      addonFile: nativeBindingFile(),
      slab,
      slotBytes: SLOT_BYTES,
    };
    const spawned = startWorker(code, { eval: true, workerData: data });
    worker = spawned;
    spawned.on('message', (msg: ShortListReply) => {
      if ('ready' in msg) {
        ready = true;
        settleWaiters();
        armIdleExit();
        emit('ready');
        return;
      }
      const w = waiting.get(msg.id);
      if (!w) return;
      waiting.delete(msg.id);
      if (waiting.size === 0) {
        spawned.unref();
        armIdleExit();
      }
      answered(w, msg);
    });
    spawned.on('error', (err) => exited(err.message));
    spawned.on('exit', () => exited('the short-list worker exited'));
    spawned.unref();
  };

  /** Starts the worker unless it runs, is starting, or cannot. */
  const start = () => {
    if (done || worker || source) return;
    source = shortListWorkerSource();
    source.then(
      (code) => {
        source = undefined;
        if (done) settleWaiters();
        else spawn(code);
      },
      (err: unknown) => {
        done = true;
        log.warn('short lists are read on the event loop', { why: String(err) });
        settleWaiters();
      },
    );
  };

  return {
    async read(query, cap) {
      const slot = worker && ready && waiting.size < WORKER_QUEUE ? freeSlots.pop() : undefined;
      if (!worker || slot === undefined) {
        // Only a list found short here starts the worker: a run of long lists (whole
        // exports, streamed) would start it for nothing.
        const list = await here(query, cap);
        if (list) start();
        return list;
      }
      clearTimeout(idleTimer);
      const id = nextId++;
      const request: ShortListRequest = { id, query, cap, slot };
      const asked = worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { query, cap, slot, resolve, reject });
        asked.ref(); // an answer is awaited: it keeps the process alive meanwhile
        asked.postMessage(request);
      });
    },
    state: () => (ready ? 'running' : worker || source ? 'starting' : 'none'),
    warmUp() {
      if (ready || done) return Promise.resolve();
      const settled = new Promise<void>((resolve) => readyWaiters.push(resolve));
      start();
      return settled;
    },
    async stop() {
      done = true;
      clearTimeout(idleTimer);
      settleWaiters();
      const running = worker;
      if (!running) return;
      const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.ref();
      running.postMessage('stop');
      await gone;
    },
  };
}
