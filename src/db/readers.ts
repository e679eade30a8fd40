// Read-only connections for streamed lists. A list is written to the socket as it is
// read, pausing when the client is slow; better-sqlite3 forbids other statements on a
// connection while one of its iterators is open, so each stream borrows a connection of
// its own. Each stream reads inside one transaction: a consistent snapshot (WAL).
import { type Db, openDatabase, statementCache } from './open';

export interface Reader {
  db: Db;
  sql: ReturnType<typeof statementCache>;
}

export interface ReaderPool {
  acquire(): Reader;
  release(reader: Reader): void;
  close(): void;
}

const MAX_IDLE = 4;

export function createReaderPool(file: string): ReaderPool {
  const idle: Reader[] = [];
  const all = new Set<Reader>();
  return {
    acquire() {
      const reader = idle.pop();
      if (reader) return reader;
      const db = openDatabase(file, { readonly: true });
      const fresh = { db, sql: statementCache(db) };
      all.add(fresh);
      return fresh;
    },
    release(reader) {
      if (reader.db.inTransaction) reader.db.exec('ROLLBACK');
      if (idle.length < MAX_IDLE && reader.db.open) {
        idle.push(reader);
      } else {
        all.delete(reader);
        reader.db.close();
      }
    },
    close() {
      for (const reader of all) if (reader.db.open) reader.db.close();
      all.clear();
      idle.length = 0;
    },
  };
}

/**
 * Runs `read` in one snapshot on a read-only connection (statements that must agree with
 * each other, e.g. a report's rows and its total), and gives the connection back.
 */
export function inSnapshot<T>(readers: ReaderPool, read: (reader: Reader) => T): T {
  const reader = readers.acquire();
  try {
    reader.db.exec('BEGIN');
    return read(reader);
  } finally {
    readers.release(reader);
  }
}
