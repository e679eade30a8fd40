// A list statement read in one snapshot on a connection of its own (db/readers.ts): what
// http/list.ts pages through and writes out. Stores build the SQL; this runs it. A short
// list of JSON texts may instead be read whole, as its body (readWholeList), on the list
// worker thread (db/short-lists.ts).
import type { Statement } from 'better-sqlite3';
import type { ReaderPool } from './readers';
import { MORE_ROWS } from './sql-json';

/** A store's list statement: fixed SQL chosen by which filters are present. */
export interface ListQuery {
  /** SELECT returning one number: the matches before paging. */
  countSql: string;
  /** SELECT of the rows in list order, ending with `LIMIT ? OFFSET ?`. */
  pageSql: string;
  /** For rows that are API JSON texts already: how to read the list whole when short. */
  whole?: WholeListSql;
  params: readonly unknown[];
  /** The counts' parameters, when they read other columns than the rows (else `params`). */
  countParams?: readonly unknown[];
}

/** The statement of readWholeList, with the parameters of the list's. */
export interface WholeListSql {
  /**
   * SELECT of the whole list, unpaged, in one pass: one JSON array (a BLOB of its UTF-8)
   * and its count of rows. Its first parameter, before the list's, is the most rows the
   * list may have; it fails with MORE_ROWS past it (jsonRows in sql-json.ts).
   */
  bodySql: string;
}

/** A short list's body in one piece, and its length. */
export interface WholeList {
  count: number;
  body: Buffer;
  /** Called once the response that sends `body` has closed: its memory may be reused. */
  sent?: () => void;
}

/**
 * The list as one JSON array when it has at most `cap` rows (undefined otherwise), read in
 * the snapshot the caller holds by one statement that counts it as it writes it, and
 * stops at row `cap + 1`.
 */
export function readWholeList(
  sql: (text: string) => Statement,
  list: Pick<ListQuery, 'params'> & { whole: WholeListSql },
  cap: number,
): WholeList | undefined {
  try {
    const [body, count] = sql(list.whole.bodySql)
      .raw()
      .get(cap, ...list.params) as [Buffer, number];
    return { count, body };
  } catch (err) {
    if (err instanceof Error && err.message === MORE_ROWS) return undefined;
    throw err;
  }
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
          .get(...(query.countParams ?? query.params)),
      ),
    close() {
      if (!open) return;
      open = false;
      readers.release(reader);
    },
  };
}
