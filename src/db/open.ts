// Opens the database file with the pragmas every connection needs, once.
import Database from 'better-sqlite3';
import { nativeBinding } from './native';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
}

/** How long a writer waits for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 10_000;

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
