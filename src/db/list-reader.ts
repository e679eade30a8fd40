// A list statement read in one snapshot on a connection of its own (db/readers.ts): what
// http/list.ts pages through and writes out. Stores build the SQL; this runs it.
import type { ReaderPool } from './readers';

/** A store's list statement: fixed SQL chosen by which filters are present. */
export interface ListQuery {
  /** SELECT returning one number: the matches before paging. */
  countSql: string;
  /** SELECT of the rows in list order, ending with `LIMIT ? OFFSET ?`. */
  pageSql: string;
  params: readonly unknown[];
}

/**
 * Opens a snapshot (BEGIN on a read-only connection) for the list; `toText` makes a
 * row's API JSON text. The connection goes back to the pool on close().
 */
export function readList<Row>(readers: ReaderPool, query: ListQuery, toText: (row: Row) => string) {
  const reader = readers.acquire();
  let open = true;
  try {
    reader.db.exec('BEGIN');
  } catch (err) {
    readers.release(reader);
    throw err;
  }
  const page = reader.sql(query.pageSql);
  return {
    read: (limit: number, skip: number): string[] =>
      (page.all(...query.params, limit, skip) as Row[]).map(toText),
    *iterate(limit: number, skip: number): Iterable<string> {
      for (const row of page.iterate(...query.params, limit, skip) as Iterable<Row>) {
        yield toText(row);
      }
    },
    count: (): number =>
      Number(
        reader
          .sql(query.countSql)
          .pluck()
          .get(...query.params),
      ),
    close() {
      if (!open) return;
      open = false;
      readers.release(reader);
    },
  };
}
