// Opens the database file with the pragmas every connection needs, once.
import Database from 'better-sqlite3';
import { nativeBinding } from './native';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
}

/** How long a writer waits for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * What is left of the WAL file once a writer starts it over after a checkpoint. Without a
 * limit the file keeps the largest size it ever had: one reader that held an old
 * snapshot through 10,000 writes left 332 MB on disk for good. 16 MiB is four times what
 * the WAL reaches between automatic checkpoints (1,000 pages of 4 KiB), so ordinary use
 * never shrinks and regrows it.
 */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    nativeBinding: nativeBinding(),
  });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  }
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Runs fn in a transaction that takes the write lock up front (BEGIN IMMEDIATE), so
 * concurrent writers — other requests' writes in other processes — queue on busy_timeout
 * instead of failing halfway with SQLITE_BUSY.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
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
