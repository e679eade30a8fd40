// Read-only connections for streamed lists. A list is written to the socket as it is
// read, pausing when the client is slow; better-sqlite3 forbids other statements on a
// connection while one of its iterators is open, so each stream borrows a connection of
// its own. Each stream reads inside one transaction: a consistent snapshot (WAL).
//
// A reader, once opened, is kept until close(): closing it would not give its file
// descriptor back. SQLite (unix) cannot close() a database file while another connection
// of the process holds a lock on it, since that would drop the other's POSIX locks, so it
// parks the descriptor until no connection of the process holds one; in WAL mode every
// open connection holds a shared lock for its whole life, the server's writer included,
// so that is never. A parked descriptor is only reused by a later read-only open: the
// process kept one per reader ever open at once (300 streams at once → 300 for good).
// The number of readers is bounded by how many lists may stream at once (http/streams.ts):
// at most that many plus the one reading a short list.
import { type Db, type OpenOptions, openDatabase, statementCache } from './open';

export interface Reader {
  db: Db;
  sql: ReturnType<typeof statementCache>;
}

export interface ReaderPool {
  acquire(): Reader;
  release(reader: Reader): void;
  close(): void;
}

/** Idle readers that keep their page cache; the others give theirs back. */
const WARM = 4;

/** `open`: how each connection is opened (a worker thread passes the addon it loaded). */
export function createReaderPool(file: string, open: OpenOptions = {}): ReaderPool {
  const idle: Reader[] = [];
  const all = new Set<Reader>();
  let closed = false;
  return {
    acquire() {
      const reader = idle.pop();
      if (reader) return reader;
      const db = openDatabase(file, { ...open, readonly: true });
      const fresh = { db, sql: statementCache(db) };
      all.add(fresh);
      return fresh;
    },
    release(reader) {
      if (closed || !reader.db.open) {
        all.delete(reader);
        if (reader.db.open) reader.db.close();
        return;
      }
      if (reader.db.inTransaction) reader.db.exec('ROLLBACK');
      // A burst of streams leaves many idle readers: their caches go, they stay open.
      if (idle.length >= WARM) reader.db.pragma('shrink_memory');
      idle.push(reader);
    },
    close() {
      closed = true;
      idle.length = 0;
      for (const reader of all) {
        try {
          reader.db.close();
          all.delete(reader);
        } catch {
          // Busy: a list still iterates on it. It is closed when the list gives it back.
        }
      }
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
