// bcrypt off the event loop: a small pool of worker threads (SPEC §9: logins must not
// stall other requests). Stored hashes are bcrypt with cost 10 and prefix $2a$, as the
// TimeSync clients produce them.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { bcryptWorkerSource } from '../embedded';
import { startWorker } from '../heap-growth';
import type { BcryptTask } from './bcrypt-worker';

export interface PasswordHasher {
  /** `signal`: a task still waiting for a worker when it aborts is dropped, never run. */
  hash(password: string, signal?: AbortSignal): Promise<string>;
  compare(password: string, hash: string, signal?: AbortSignal): Promise<boolean>;
  /** Tasks waiting for a worker now (the metrics' bcrypt queue length). */
  waiting(): number;
  /** Worker threads running now: none until the first task, none again once idle. */
  workers(): number;
  close(): Promise<void>;
}

/** Every worker is busy and the waiting line is full: try again in `retryAfterSeconds`. */
export class HasherBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('every bcrypt worker is busy and the queue is full');
  }
}

/** The task's signal aborted while it waited (its client has gone): it did not run. */
export class TaskDroppedError extends Error {
  constructor() {
    super('bcrypt task dropped: its caller has gone');
  }
}

/** What happens to tasks and workers, for tests that count work instead of timing it. */
export type HasherEvent = 'queued' | 'started' | 'finished' | 'dropped' | 'refused' | 'exited';

export interface HasherOptions {
  /**
   * Tasks that may wait per worker while all workers are busy; beyond that a task is
   * refused at once with HasherBusyError (default: no limit — for the CLI).
   */
  queuePerWorker?: number;
  /** Internal: called on every event of every task. */
  onEvent?: (event: HasherEvent) => void;
  /** Internal: how long a worker waits for a task before it exits (tests shorten it). */
  idleExitMs?: number;
  /** Internal: each worker thread as it starts (tests end one as a crash would). */
  onWorker?: (worker: Worker) => void;
}

type Pending = { resolve: (v: string | boolean) => void; reject: (e: Error) => void };
type Waiting = { task: BcryptTask; detach: () => void };

/** Until a task has been measured: cost 10 takes ~70 ms on a current core. */
const FIRST_ESTIMATE_MS = 100;

/**
 * A worker with no task for this long exits. Each is a V8 isolate of several MB that a
 * server kept for good after its first logins (docs/benchmarks.md, Memory); the next
 * login starts one again, which costs a few ms beside bcrypt's ~70.
 */
export const BCRYPT_IDLE_EXIT_MS = 10_000;

/**
 * Workers: one per core but one, so that a burst of logins leaves the event loop a core
 * of its own (on 2 cores, two workers kept both busy and reads waited for CPU: the login
 * storm of docs/benchmarks.md, reads 3,429–4,162 → 4,389–5,007 req/s, p99 9.4–10.6 →
 * 6.7–7.4 ms, and one isolate fewer, ~8 MB). A single core still gets one.
 */
export const BCRYPT_WORKERS = Math.max(1, availableParallelism() - 1);

export function createPasswordHasher(
  size = BCRYPT_WORKERS,
  options: HasherOptions = {},
): PasswordHasher {
  const workers: Worker[] = [];
  const idle: Worker[] = [];
  // Insertion-ordered: the oldest waiting task first; a dropped one is deleted in place.
  const queue = new Map<number, Waiting>();
  const pending = new Map<number, Pending>();
  const maxWaiting = (options.queuePerWorker ?? Number.POSITIVE_INFINITY) * size;
  const emit = options.onEvent ?? (() => {});
  const idleExitMs = options.idleExitMs ?? BCRYPT_IDLE_EXIT_MS;
  const idleTimers = new Map<Worker, NodeJS.Timeout>();
  /** The task each busy worker runs. */
  const running = new Map<Worker, number>();
  const startedAt = new Map<number, number>();
  let closed = false;
  let averageMs = FIRST_ESTIMATE_MS;
  let nextId = 1;
  let source: string | undefined;

  const spawn = (): Worker => {
    source ??= bcryptWorkerSource();
    const worker = startWorker(source, { eval: true });
    worker.on('message', (msg: { id: number; result?: string | boolean; error?: string }) => {
      running.delete(worker);
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      const started = startedAt.get(msg.id);
      startedAt.delete(msg.id);
      if (started !== undefined) averageMs = 0.8 * averageMs + 0.2 * (performance.now() - started);
      emit('finished');
      if (msg.error !== undefined) p?.reject(new Error(msg.error));
      else p?.resolve(msg.result as string | boolean);
      dispatch(worker);
    });
    worker.on('error', (err) => lost(worker, err));
    worker.on('exit', (code) =>
      lost(worker, new Error(`a bcrypt worker stopped (exit code ${code})`)),
    );
    workers.push(worker);
    options.onWorker?.(worker);
    return worker;
  };

  /**
   * A worker ended that was not told to (it crashed, or was killed): its task fails, it
   * leaves the pool, and a new one takes the tasks waiting. Left counted, a dead worker
   * kept its place in the pool for good, and with every one dead logins waited forever.
   */
  const lost = (worker: Worker, err: Error) => {
    if (closed || !leave(worker)) return; // retired when idle (rest), or already seen
    const id = running.get(worker);
    running.delete(worker);
    if (id !== undefined) {
      startedAt.delete(id);
      pending.get(id)?.reject(err);
      pending.delete(id);
    }
    if (queue.size > 0) dispatch(spawn());
  };

  /** Takes `worker` out of the pool, its idle list and its exit timer; false if it had left. */
  const leave = (worker: Worker): boolean => {
    const at = workers.indexOf(worker);
    if (at === -1) return false;
    workers.splice(at, 1);
    const resting = idle.indexOf(worker);
    if (resting !== -1) idle.splice(resting, 1);
    clearTimeout(idleTimers.get(worker));
    idleTimers.delete(worker);
    emit('exited');
    return true;
  };

  const start = (worker: Worker, task: BcryptTask) => {
    running.set(worker, task.id);
    startedAt.set(task.id, performance.now());
    emit('started');
    worker.postMessage(task);
  };

  /** Takes an idle worker for a task; its exit timer stops. */
  const takeIdle = (): Worker | undefined => {
    const worker = idle.pop();
    if (worker) {
      clearTimeout(idleTimers.get(worker));
      idleTimers.delete(worker);
    }
    return worker;
  };

  /** Nothing to do: the worker waits, and exits after idleExitMs with still nothing. */
  const rest = (worker: Worker) => {
    idle.push(worker);
    const timer = setTimeout(() => {
      leave(worker);
      void worker.terminate();
    }, idleExitMs);
    timer.unref();
    idleTimers.set(worker, timer);
  };

  const dispatch = (worker: Worker) => {
    const next = queue.entries().next();
    if (next.done) {
      rest(worker);
      return;
    }
    const [id, waiting] = next.value;
    queue.delete(id);
    waiting.detach();
    start(worker, waiting.task);
  };

  /** Seconds until the line ahead of a new task has been worked off (at least 1). */
  const retryAfter = () => Math.max(1, Math.ceil(((queue.size / size + 1) * averageMs) / 1000));

  const run = (task: Omit<BcryptTask, 'id'>, signal?: AbortSignal) =>
    new Promise<string | boolean>((resolve, reject) => {
      if (signal?.aborted) {
        emit('dropped');
        reject(new TaskDroppedError());
        return;
      }
      const worker = takeIdle() ?? (workers.length < size ? spawn() : undefined);
      if (!worker && queue.size >= maxWaiting) {
        emit('refused');
        reject(new HasherBusyError(retryAfter()));
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      if (worker) {
        start(worker, { ...task, id });
        return;
      }
      // Waits for a worker; if its caller goes away meanwhile, it is taken out unrun.
      const drop = () => {
        if (!queue.delete(id)) return;
        pending.delete(id);
        emit('dropped');
        reject(new TaskDroppedError());
      };
      signal?.addEventListener('abort', drop, { once: true });
      queue.set(id, {
        task: { ...task, id },
        detach: () => signal?.removeEventListener('abort', drop),
      });
      emit('queued');
    });

  return {
    hash: async (password, signal) =>
      (await run({ op: 'hash', password, cost: 10 }, signal)) as string,
    compare: async (password, hash, signal) =>
      (await run({ op: 'compare', password, hash }, signal)) as boolean,
    waiting: () => queue.size,
    workers: () => workers.length,
    async close() {
      closed = true;
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      await Promise.all(workers.map((w) => w.terminate()));
      workers.length = 0;
      idle.length = 0;
    },
  };
}

/** Hashing `password` here needs ~70 ms of CPU; precomputed so unknown users cost the same. */
export const DUMMY_HASH = '$2a$10$GkktCMvA5XVqBci5nW.Xc.jEWS.YEqO2UOPP2INFMs1xPXi.DAHlG';
