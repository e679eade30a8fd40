// Bodies made from the rows of one snapshot a piece at a time, on a worker thread with
// read-only connections of its own (text-stream-worker.ts). A report of everyone over
// three years groups ~200,000 entries in SQLite (~0.6 s before its first row) and writes
// ~270,000 rows of JSON (~1.5 s more): on the event loop it held every other request,
// /health included, for ~2 s, and its 24 MB body and the rows behind it took the RSS
// from 115 to over 300 MB. On the worker the event loop only sends the pieces: it asks
// for the next one while it writes the last, so a client that reads slowly leaves the
// statement paused where it is instead of pieces piling up in memory.
//
// The worker starts with the first stream and exits after 10 s without one, as the
// short-list worker does (its ~15–18 MB are held only while such bodies are made). A
// stream waits for it to start; if it cannot start, or fails, streams are read on the
// event loop from then on (never refused for its sake).
import type { Worker } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import { startWorker } from '../heap-growth';
import type { Logger } from '../log';
import { type NativeFiles, nativeFiles } from './native';
import type { Reader, ReaderPool } from './readers';

/** A piece of a body; `done` on its last. */
export interface TextChunk {
  text: string;
  done: boolean;
}

/** A body made from rows read in the snapshot of the connection it was opened on. */
export interface TextSource {
  /** The next piece: at least `size` characters unless it is the last (`done`). */
  read(size: number): TextChunk;
  /** Stops reading (closes the statement); called once, also after the last piece. */
  close(): void;
}

/** Makes a request's body from a connection's statements, inside its snapshot. */
export type OpenText<R> = (sql: (text: string) => Statement, request: R) => TextSource;

/** A body as the event loop reads it: each piece once the previous one has come. */
export interface TextStream {
  next(size: number): Promise<TextChunk>;
  /** Gives the snapshot and its connection back; called once (also after the last piece). */
  close(): void;
}

export interface TextWorkerData extends NativeFiles {
  file: string;
}

/** To the worker: a stream's first piece (with what to read), a next piece, its end. */
export type TextRequest<R> =
  | { id: number; open: R; size: number }
  | { id: number; size: number }
  | { id: number; close: true }
  | 'stop';

/** From the worker: `ready` once it reads; per piece asked for, the piece or the error. */
export type TextReply =
  | { ready: true }
  | { id: number; text: string; done: boolean }
  | { id: number; error: string };

/** What the worker did (tests wait for these). */
export type TextStreamEvent = 'ready' | 'exited';

export interface TextStreamOptions {
  /** Internal: how long the worker waits for a stream before it exits (tests shorten it). */
  idleExitMs?: number;
  onEvent?: (event: TextStreamEvent) => void;
}

export interface TextStreams<R> {
  /** The body of `request`, read on the worker (started if need be) or, failing that, here. */
  open(request: R): TextStream;
  /** The worker: not there, starting, or reading. */
  state(): 'none' | 'starting' | 'running';
  /** Stops the worker for good; streams opened later are read on the event loop. */
  stop(): Promise<void>;
}

/** The worker exits after this long without a stream. */
export const TEXT_STREAM_IDLE_EXIT_MS = 10_000;

/** A body read on the event loop, on a connection of the pool (no worker, or a failed one). */
export function textHere<R>(readers: ReaderPool, openText: OpenText<R>, request: R): TextStream {
  let reader: Reader | undefined;
  let source: TextSource | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      source?.close();
    } finally {
      if (reader) readers.release(reader);
    }
  };
  return {
    async next(size) {
      if (closed) throw new Error('the text stream is closed');
      try {
        if (!source) {
          reader = readers.acquire();
          reader.db.exec('BEGIN');
          source = openText(reader.sql, request);
        }
        const chunk = source.read(size);
        if (chunk.done) close();
        return chunk;
      } catch (err) {
        close();
        throw err;
      }
    },
    close,
  };
}

interface Asked {
  resolve: (chunk: TextChunk) => void;
  reject: (err: unknown) => void;
}

/**
 * Streams on a worker running `source` (a bundle whose entry calls serveTextStreams with
 * `openText`); `what` names it in the log. `openText` also reads here when it cannot run.
 */
export function startTextStreams<R>(params: {
  what: string;
  file: string;
  readers: ReaderPool;
  source: () => Promise<string>;
  openText: OpenText<R>;
  log: Logger;
  options?: TextStreamOptions;
}): TextStreams<R> {
  const { what, file, readers, openText, log, options = {} } = params;
  const idleExitMs = options.idleExitMs ?? TEXT_STREAM_IDLE_EXIT_MS;
  const emit = (event: TextStreamEvent) => options.onEvent?.(event);
  const asked = new Map<number, Asked>();
  let nextId = 1;
  /** The worker once it reads. */
  let worker: Worker | undefined;
  let starting: Promise<Worker | undefined> | undefined;
  /** Set while a worker exits for want of streams: the next stream waits for a new one. */
  let retiring: Promise<void> | undefined;
  /** Stopped, or the worker failed: streams are read here from now on. */
  let done = false;
  /** Streams open on the worker (each holds one of its connections). */
  let streams = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const armIdleExit = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      const running = worker;
      if (!running || streams > 0) return;
      worker = undefined;
      retiring = new Promise((resolve) => running.once('exit', () => resolve()));
      running.postMessage('stop' satisfies TextRequest<R>);
    }, idleExitMs);
    idleTimer.unref();
  };

  const spawn = async (): Promise<Worker | undefined> => {
    let code: string;
    try {
      code = await params.source();
    } catch (err) {
      done = true;
      log.warn(`${what} bodies are made on the event loop`, { why: String(err) });
      return undefined;
    }
    if (done) return undefined;
    const data: TextWorkerData = {
      file,
      ...nativeFiles(),
    };
    const spawned = startWorker(code, { eval: true, workerData: data });
    spawned.unref();
    return new Promise((resolve) => {
      let gone = false;
      spawned.on('message', (msg: TextReply) => {
        if ('ready' in msg) {
          worker = spawned;
          armIdleExit();
          emit('ready');
          resolve(spawned);
          return;
        }
        const a = asked.get(msg.id);
        if (!a) return;
        asked.delete(msg.id);
        if (asked.size === 0) spawned.unref();
        if ('error' in msg) a.reject(new Error(msg.error));
        else a.resolve({ text: msg.text, done: msg.done });
      });
      const exited = (why: string) => {
        if (gone) return;
        gone = true;
        const failed = worker === spawned || (!done && retiring === undefined);
        if (worker === spawned) worker = undefined;
        if (failed && !done) {
          done = true;
          log.warn(`${what} bodies are made on the event loop`, { why });
        }
        clearTimeout(idleTimer);
        for (const [id, a] of asked) {
          asked.delete(id);
          a.reject(new Error(`the ${what} worker stopped: ${why}`));
        }
        retiring = undefined;
        resolve(undefined); // if it never became ready
        emit('exited');
      };
      spawned.on('error', (err) => exited(err.message));
      spawned.on('exit', () => exited('it exited'));
    });
  };

  /** The worker to open a stream on: started if need be; undefined when it cannot run. */
  const workerForStream = async (): Promise<Worker | undefined> => {
    while (retiring) await retiring;
    if (done) return undefined;
    if (worker) return worker;
    if (!starting) {
      starting = spawn();
      void starting.then(() => {
        starting = undefined;
      });
    }
    return starting;
  };

  const ask = (on: Worker, msg: Exclude<TextRequest<R>, 'stop'>) =>
    new Promise<TextChunk>((resolve, reject) => {
      asked.set(msg.id, { resolve, reject });
      on.ref(); // a piece is awaited: it keeps the process alive meanwhile
      on.postMessage(msg);
    });

  return {
    open(request) {
      let here: TextStream | undefined;
      let on: Worker | undefined;
      let id = 0;
      let state: 'new' | 'open' | 'closed' = 'new';
      const ended = () => {
        if (state === 'open') {
          streams--;
          if (streams === 0 && worker) armIdleExit();
        }
        state = 'closed';
      };
      return {
        async next(size) {
          if (here) return here.next(size);
          if (state === 'closed') throw new Error('the text stream is closed');
          let msg: Exclude<TextRequest<R>, 'stop'>;
          if (state === 'new') {
            const w = await workerForStream();
            if ((state as string) === 'closed') throw new Error('the text stream is closed');
            if (!w) {
              here = textHere(readers, openText, request);
              return here.next(size);
            }
            on = w;
            id = nextId++;
            state = 'open';
            streams++;
            clearTimeout(idleTimer);
            msg = { id, open: request, size };
          } else {
            if (!on || on !== worker) {
              ended();
              throw new Error(`the ${what} worker stopped`);
            }
            msg = { id, size };
          }
          try {
            const chunk = await ask(on, msg);
            if (chunk.done) ended();
            return chunk;
          } catch (err) {
            ended();
            throw err;
          }
        },
        close() {
          if (here) {
            here.close();
            return;
          }
          if (state === 'open' && on && on === worker) {
            on.postMessage({ id, close: true } satisfies TextRequest<R>);
          }
          ended();
        },
      };
    },
    state: () => (worker ? 'running' : starting ? 'starting' : 'none'),
    async stop() {
      done = true;
      clearTimeout(idleTimer);
      const running = worker ?? (await starting);
      worker = undefined;
      if (retiring) await retiring;
      if (!running) return;
      const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.ref();
      running.postMessage('stop' satisfies TextRequest<R>);
      await gone;
    },
  };
}
