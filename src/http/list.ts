// Streams a list response (SPEC §6): X-Total-Count and Link headers, then a JSON array
// written row by row as SQLite produces it, so memory does not grow with the list and
// the first byte leaves after the first rows. Short lists are sent in one piece.
import type { ServerResponse } from 'node:http';
import type { Reader, ReaderPool } from '../db/readers';
import { JsonText, toJsonText } from '../json-text';
import type { Paging } from './query';
import { sendJson, startJsonStream } from './respond';

export interface ListQuery<Row> {
  /** SELECT returning one number: the matches before paging. */
  countSql: string;
  /** SELECT of the rows in list order, ending with `LIMIT ? OFFSET ?`. */
  pageSql: string;
  params: readonly unknown[];
  /** The API object of a row, or its JsonText when the statement built the JSON. */
  toJson: (row: Row) => unknown;
}

const FLUSH_BYTES = 64 * 1024;
/**
 * Rows read before the headers go out. A list that ends within them (one user's month,
 * any page of a paged list) needs no count(*) for X-Total-Count and is sent whole; a
 * longer one is counted and then streamed on from where the first read stopped, in the
 * same snapshot.
 */
const FIRST_ROWS = 1000;

export async function streamList<Row>(
  res: ServerResponse,
  readers: ReaderPool,
  requestUrl: URL,
  paging: Paging,
  list: ListQuery<Row>,
): Promise<void> {
  const { limit, skip } = paging; // limit 0: no limit
  const rowJson = (row: Row) => toJsonText(list.toJson(row));
  const linkHeader = (total: number): Record<string, string> =>
    limit > 0 && skip + limit < total
      ? { Link: `<${nextPageUrl(requestUrl, paging)}>; rel="next"` }
      : {};
  let reader: Reader | undefined = readers.acquire();
  try {
    reader.db.exec('BEGIN');
    const page = reader.sql(list.pageSql);
    const firstLimit = limit > 0 ? Math.min(limit, FIRST_ROWS) : FIRST_ROWS;
    const first = page.all(...list.params, firstLimit, skip) as Row[];
    const ended = first.length < firstLimit;
    if (ended && (first.length > 0 || skip === 0)) {
      // The whole answer is in hand: its connection goes back before the slow part,
      // writing to the socket, and the body goes out in one piece.
      readers.release(reader);
      reader = undefined;
      const total = skip + first.length;
      const body = new JsonText(`[${first.map(rowJson).join(',')}]`);
      sendJson(res, 200, body, { 'X-Total-Count': String(total), ...linkHeader(total) });
      return;
    }
    const total = Number(
      reader
        .sql(list.countSql)
        .pluck()
        .get(...list.params),
    );
    startJsonStream(res, 200, { 'X-Total-Count': String(total), ...linkHeader(total) });
    if (res.req.method === 'HEAD') return void res.end(); // no body: the rest is not read
    const wantsMore = !ended && (limit === 0 || limit > first.length);
    const rest = wantsMore
      ? (page.iterate(
          ...list.params,
          limit > 0 ? limit - first.length : -1,
          skip + first.length,
        ) as Iterable<Row>)
      : [];
    let chunk = '[';
    let separator = '';
    for (const rows of [first, rest]) {
      for (const row of rows) {
        chunk += separator + rowJson(row);
        separator = ',';
        if (chunk.length >= FLUSH_BYTES) {
          const flushed = res.write(chunk);
          chunk = '';
          if (!flushed && !(await drained(res))) return; // client went away
        }
      }
    }
    res.end(`${chunk}]`);
  } finally {
    if (reader) readers.release(reader);
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
