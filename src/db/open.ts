// Opens the database file with the pragmas every connection needs, once.
import Database from 'better-sqlite3';
import { loadAddon, type NativeFiles, nativeBinding, sqliteExtensionFile } from './native';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  /** better-sqlite3's addon, loaded already (a worker thread of the executable). */
  addon?: unknown;
  /** Our SQLite extension's file (a worker: from the thread that starts it); else found. */
  extension?: string;
}

/**
 * In a worker thread: the options with which its connections load the native code from
 * the files the starting thread gave it (nativeFiles); the addon is loaded here, once.
 */
export function workerOpenOptions(files: NativeFiles): OpenOptions {
  return { addon: loadAddon(files.addonFile), extension: files.extensionFile };
}

/**
 * How long a statement blocks waiting for another process's lock before SQLITE_BUSY. The
 * one-shot CLI commands keep it; `serve` lowers it once started and waits asynchronously
 * instead (whenWriteLockFree), so other requests keep being answered meanwhile.
 */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * What is left of the WAL file once a writer starts it over after a checkpoint. Without a
 * limit the file keeps the largest size it ever had: one reader that held an old
 * snapshot through 10,000 writes left 332 MB on disk for good. 16 MiB is four times what
 * the WAL reaches between automatic checkpoints (1,000 pages of 4 KiB), so ordinary use
 * never shrinks and regrows it.
 */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;

/**
 * SQLite's page cache of the writing connection, KiB (SQLite's default is 2,000). It also
 * answers single reads (a time, a project); creates gained with a larger cache (from
 * ~1,000 to ~1,800/s in-process with 64 MB: docs/benchmarks.md). It grows only as pages
 * are read.
 */
export const CACHE_KIB = 16 * 1024;

/**
 * The page cache of each read-only connection (lists, reports), KiB. It held 16 MiB
 * while one user's month was ~1,100 pages spread over the file; a month is now a short
 * range of time_user_rows (sql/009; time_user_json, sql/005, before), and in-process on the 1,000,000-entry set, five
 * alternating turns, the month (~0.85 ms) and the whole list (~480,000 rows/s) read the
 * same with 2, 4 or 16 MiB. Every reader that streams holds one, so this is what each
 * concurrent list costs in memory.
 */
export const READER_CACHE_KIB = 2 * 1024;

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    nativeBinding: (options.addon ?? nativeBinding()) as never,
  });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${options.readonly ? READER_CACHE_KIB : CACHE_KIB}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  }
  db.pragma('foreign_keys = ON');
  // json_rows(), with which lists are written (jsonRows in sql-json.ts): on every
  // connection opened here, so that any statement can run on any of them.
  db.loadExtension(options.extension ?? sqliteExtensionFile());
  return db;
}

/**
 * Another process holds the write lock: thrown by writeTransaction before anything was
 * done, so the whole operation may simply be run again.
 */
export class WriteLockBusy extends Error {
  constructor() {
    super('the database is locked by another process');
  }
}

const isBusy = (err: unknown) =>
  /^SQLITE_BUSY/.test(String((err as { code?: unknown } | null)?.code ?? ''));

/**
 * Steps run at the end of every outermost write transaction on a connection, before its
 * COMMIT: where a trigger can only mark derived data stale (its computation is SQL built
 * in TypeScript), the step computes it, so that no write of this process commits any stale.
 */
const stepsBeforeCommit = new WeakMap<Db, (() => void)[]>();

/** Runs the connection's beforeCommit steps (at the end of its outermost write). */
const runStepsBeforeCommit = (db: Db) => {
  for (const step of stepsBeforeCommit.get(db) ?? []) step();
};

/** Adds a step run before every outermost COMMIT of writeTransaction on `db`. */
export function beforeCommit(db: Db, step: () => void): void {
  const steps = stepsBeforeCommit.get(db);
  if (steps) steps.push(step);
  else stepsBeforeCommit.set(db, [step]);
}

/**
 * The one way every write opens its transaction (a request's, a batch of the write queue,
 * an admin command's, the background filler's). It takes the write lock up front (BEGIN
 * IMMEDIATE), so a transaction never fails halfway with SQLITE_BUSY: either the lock is
 * had (after at most busy_timeout) and all of fn runs, or WriteLockBusy is thrown and
 * nothing was done. Inside another transaction it is a savepoint of that one. The
 * outermost one runs the connection's beforeCommit steps last.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  const outermost = !db.inTransaction;
  const run =
    outermost && stepsBeforeCommit.has(db)
      ? () => {
          const result = fn();
          runStepsBeforeCommit(db);
          return result;
        }
      : fn;
  try {
    return db.transaction(run).immediate();
  } catch (err) {
    if (outermost && !db.inTransaction && isBusy(err)) throw new WriteLockBusy();
    throw err;
  }
}

/**
 * writeTransaction for a write that awaits between its statements (`admin import` reads
 * its file as a stream): BEGIN IMMEDIATE now; `commit()` runs the connection's
 * beforeCommit steps and COMMITs, `rollback()` undoes it all.
 */
export function openWrite(db: Db): { commit(): void; rollback(): void } {
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    if (isBusy(err)) throw new WriteLockBusy();
    throw err;
  }
  return {
    commit() {
      runStepsBeforeCommit(db);
      db.exec('COMMIT');
    },
    rollback() {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
  };
}

/**
 * Logged once by a request whose write finds another process's write lock and waits for
 * it (docs/operations.md, Logs): an operator sees what a long sqlite3 shell transaction,
 * or the CLI, holds up.
 */
export const WAITING_FOR_THE_WRITE_LOCK = 'waiting for the write lock';

/**
 * Runs `operation`, and again after a pause (10 ms, doubling to 200 ms) each time it
 * finds the write lock held by another process, for up to `waitMs` in all; then rethrows
 * WriteLockBusy. The pauses leave the event loop free for other requests. `onWait` is
 * called once, when the lock is first found held (the request's log line says so).
 */
export async function whenWriteLockFree<T>(
  operation: () => T | Promise<T>,
  waitMs: number,
  onWait?: () => void,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  let pause = 10;
  for (;;) {
    try {
      return await operation();
    } catch (err) {
      if (!(err instanceof WriteLockBusy) || Date.now() + pause > deadline) throw err;
    }
    if (pause === 10) onWait?.();
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 200);
  }
}

/** Caches prepared statements per connection: each SQL text is prepared once. */
export function statementCache(db: Db) {
  const cache = new Map<string, Database.Statement>();
  return (sql: string): Database.Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}
