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
// A list is read on the event loop instead, on a connection of the reader pool, while the
// worker is starting (a moment after start-up, like the checkpoint worker), when every
// slot is in use, when its body is larger than a slot (over ~800 entries), if the worker
// fails, and for whatever was in flight when it stopped: never refused for its sake.
import { shortListWorkerSource } from '../embedded';
import type { Logger } from '../log';
import { startWorker } from '../heap-growth';
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
  /** Settles once the worker has its connection open (or has failed, or was stopped). */
  started: Promise<void>;
  /** Stops the worker; lists still asked for are read on the event loop. */
  stop(): Promise<void>;
}

/** How long after start-up the worker starts: not among the first answers (as checkpoints). */
export const SHORT_LIST_WORKER_DELAY_MS = 1000;

/**
 * The slots: 16 of 256 KiB (4 MiB, resident once used). A month is ~170 KB; 16 answers
 * read and not yet sent is more than a server's busy clients make at once.
 */
export const SLOT_BYTES = 256 * 1024;
export const SLOTS = 16;

interface Waiting {
  query: ShortListQuery;
  cap: number;
  slot: number;
  resolve: (list: WholeList | undefined) => void;
  reject: (err: unknown) => void;
}

/** Reads short lists on the event loop only (tests of a store, the in-process bench). */
export function shortListsHere(readers: ReaderPool): ShortLists['read'] {
  return async (query, cap) =>
    inSnapshot(readers, (reader) => readWholeList(reader.sql, query, cap));
}

/** Starts the worker in SHORT_LIST_WORKER_DELAY_MS; until then lists are read here. */
export function startShortLists(file: string, readers: ReaderPool, log: Logger): ShortLists {
  const here = shortListsHere(readers);
  const waiting = new Map<number, Waiting>();
  const slab = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  const freeSlots = Array.from({ length: SLOTS }, (_, i) => i);
  let nextId = 1;
  let worker: ReturnType<typeof startWorker> | undefined;
  let ready = false;
  let stopped = false;
  let settle = () => {};
  const started = new Promise<void>((resolve) => {
    settle = resolve;
  });

  /** The worker is gone: what it was asked is read here, and so is everything after. */
  const fallBack = (why: string) => {
    if (!worker) return;
    worker = undefined;
    ready = false;
    settle();
    if (!stopped) log.warn('short lists are read on the event loop', { why });
    for (const [id, w] of waiting) {
      waiting.delete(id);
      freeSlots.push(w.slot);
      here(w.query, w.cap).then(w.resolve, w.reject);
    }
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

  const spawn = (source: string) => {
    const data: ShortListWorkerData = {
      file,
      addonFile: nativeBindingFile(),
      slab,
      slotBytes: SLOT_BYTES,
    };
    const spawned = startWorker(source, { eval: true, workerData: data });
    worker = spawned;
    spawned.on('message', (msg: ShortListReply) => {
      if ('ready' in msg) {
        ready = true;
        settle();
        return;
      }
      const w = waiting.get(msg.id);
      if (!w) return;
      waiting.delete(msg.id);
      if (waiting.size === 0) spawned.unref();
      answered(w, msg);
    });
    spawned.on('error', (err) => fallBack(err.message));
    spawned.on('exit', () => fallBack('the short-list worker exited'));
    spawned.unref();
  };

  const timer = setTimeout(() => {
    shortListWorkerSource().then(
      (source) => {
        if (stopped) settle();
        else spawn(source);
      },
      (err: unknown) => {
        log.warn('short lists are read on the event loop', { why: String(err) });
        settle();
      },
    );
  }, SHORT_LIST_WORKER_DELAY_MS);
  timer.unref();

  return {
    read(query, cap) {
      const slot = worker && ready ? freeSlots.pop() : undefined;
      if (!worker || slot === undefined) return here(query, cap);
      const id = nextId++;
      const request: ShortListRequest = { id, query, cap, slot };
      const asked = worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { query, cap, slot, resolve, reject });
        asked.ref(); // an answer is awaited: it keeps the process alive meanwhile
        asked.postMessage(request);
      });
    },
    started,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      settle();
      const running = worker;
      if (!running) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.ref();
      running.postMessage('stop');
      await exited;
    },
  };
}
