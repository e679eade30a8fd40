// Streams a list response (SPEC §6): X-Total-Count and Link headers, then a JSON array
// written row by row as SQLite produces it, so memory does not grow with the list and
// the first byte leaves at once.
import type { ServerResponse } from 'node:http';
import type { ReaderPool } from '../db/readers';
import type { Paging } from './query';
import { startJsonStream } from './respond';

export interface ListQuery<Row> {
  /** SELECT returning one number: the matches before paging. */
  countSql: string;
  /** SELECT of the rows in list order, ending with `LIMIT ? OFFSET ?`. */
  pageSql: string;
  params: readonly unknown[];
  toJson: (row: Row) => unknown;
}

const FLUSH_BYTES = 64 * 1024;

export async function streamList<Row>(
  res: ServerResponse,
  readers: ReaderPool,
  requestUrl: URL,
  paging: Paging,
  list: ListQuery<Row>,
): Promise<void> {
  const reader = readers.acquire();
  try {
    reader.db.exec('BEGIN');
    const total = Number(
      reader
        .sql(list.countSql)
        .pluck()
        .get(...list.params),
    );
    const headers: Record<string, string> = { 'X-Total-Count': String(total) };
    if (paging.limit > 0 && paging.skip + paging.limit < total) {
      headers.Link = `<${nextPageUrl(requestUrl, paging)}>; rel="next"`;
    }
    startJsonStream(res, 200, headers);
    const rows = reader
      .sql(list.pageSql)
      .iterate(...list.params, paging.limit > 0 ? paging.limit : -1, paging.skip) as Iterable<Row>;
    let chunk = '[';
    let first = true;
    for (const row of rows) {
      chunk += (first ? '' : ',') + JSON.stringify(list.toJson(row));
      first = false;
      if (chunk.length >= FLUSH_BYTES) {
        const flushed = res.write(chunk);
        chunk = '';
        if (!flushed && !(await drained(res))) return; // client went away
      }
    }
    res.end(`${chunk}]`);
  } finally {
    readers.release(reader);
  }
}

/** Resolves true when the socket can take more, false when it closed. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/** Same path and parameters with `skip` advanced; the token is not repeated. */
function nextPageUrl(url: URL, paging: Paging): string {
  const next = new URLSearchParams(url.searchParams);
  next.delete('token');
  next.set('skip', String(paging.skip + paging.limit));
  next.set('limit', String(paging.limit));
  return `${url.pathname}?${next.toString()}`;
}
