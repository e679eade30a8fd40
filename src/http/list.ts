// Sends a list response (SPEC §6): X-Total-Count and Link headers, then a JSON array
// written row by row as the rows are read, so memory does not grow with the list and
// the first byte leaves after the first rows. Short lists are sent in one piece.
// What to list is the service's business (its `list` answers a Listing); this file
// only pages and writes, and runs no SQL. A streamed list holds a database reader until
// its client has taken the rows, so it takes one of a limited number of slots
// (http/streams.ts), and a response that makes no progress for the stall limit is cut
// off (http/stream-watch.ts). The same paging and streaming write CSV (sendCsvList),
// each row's CSV made from its JSON text.
import type { Ctx } from './context';
import { attachment, CSV_TYPE, csvLine } from './csv';
import type { Paging } from './query';
import { JSON_TYPE, joinedBytes, sendText, startStream } from './respond';
import { cutOff, ownTurn, progress, watchConnection, watchTail } from './stream-watch';
import { tooManyStreams } from './streams';

/** The rows of one list in one consistent snapshot, as API JSON texts. */
export interface ListRows {
  /** Up to `limit` rows after `skip`, read at once. */
  read(limit: number, skip: number): string[];
  /** Rows after `skip` (`limit` -1: all), read as they are taken. */
  iterate(limit: number, skip: number): Iterable<string>;
  /** The matches before paging. */
  count(): number;
  /** Gives the snapshot (and its connection) back; called once, also on failure. */
  close(): void;
}

/** The rows of a short list already in memory (a user's personal tokens). */
export function rowsOf(texts: readonly string[]): ListRows {
  const page = (limit: number, skip: number) =>
    texts.slice(skip, limit < 0 ? undefined : skip + limit);
  return {
    read: page,
    iterate: page,
    count: () => texts.length,
    close: () => {},
  };
}

/**
 * A short list's body in one piece, and its length: what db/list-reader.ts reads (its
 * WholeList, the same shape; http/ and db/ do not import each other).
 */
export interface WholeBody {
  count: number;
  body: Buffer;
  /** Called once the response that sends `body` has closed: its memory may be reused. */
  sent?: () => void;
}

/** What a service's `list(actor, query)` answers: the page asked for and how to read it. */
export interface Listing {
  paging: Paging;
  open(): ListRows;
  /**
   * Lists whose rows are JSON texts already (times): the whole list as one JSON array
   * when it has at most `cap` rows, else undefined.
   */
  readWhole?(cap: number): Promise<WholeBody | undefined>;
}

/** How a list's body is written around and between its rows. */
interface ListBody {
  contentType: string;
  headers: Record<string, string>;
  begin: string;
  separator: string;
  end: string;
  /** A row's text from its API JSON text; absent: the JSON text as it is (no work per row). */
  row?: (json: string) => string;
}

const JSON_BODY: ListBody = {
  contentType: JSON_TYPE,
  headers: {},
  begin: '[',
  separator: ',',
  end: ']',
};

/** A list as CSV: what its rows become and the name a browser saves it under. */
export interface CsvList {
  header: readonly string[];
  /** The row's cells, from its API JSON text. */
  cells(json: string): (string | number | null)[];
  filename: string;
}

/**
 * sendList as CSV: a header row, then one record per row, paged, counted and streamed
 * exactly like the JSON (X-Total-Count, Link, limit and skip).
 */
export function sendCsvList(ctx: Ctx, listing: Listing, csv: CsvList): Promise<void> {
  return sendList(ctx, listing, {
    contentType: CSV_TYPE,
    headers: attachment(csv.filename),
    begin: csvLine(csv.header),
    separator: '',
    end: '',
    row: (json) => csvLine(csv.cells(json)),
  });
}

function* mapped(texts: Iterable<string>, row: (json: string) => string): Iterable<string> {
  for (const text of texts) yield row(text);
}

const FLUSH_BYTES = 64 * 1024;
/**
 * Rows read before the headers go out. A list that ends within them (one user's month,
 * any page of a paged list) needs no count(*) for X-Total-Count and is sent whole; a
 * longer one is counted and then streamed on from where the first read stopped, in the
 * same snapshot.
 */
const FIRST_ROWS = 1000;

export async function sendList(
  ctx: Ctx,
  listing: Listing,
  body: ListBody = JSON_BODY,
): Promise<void> {
  const { res, lists } = ctx;
  const { row } = body;
  const { paging } = listing;
  const { limit, skip } = paging; // limit 0: no limit
  const linkHeader = (total: number): Record<string, string> =>
    limit > 0 && skip + limit < total
      ? { Link: `<${nextPageUrl(ctx.url, paging)}>; rel="next"` }
      : {};
  const firstLimit = limit > 0 ? Math.min(limit, FIRST_ROWS) : FIRST_ROWS;
  /** More rows than the first read are wanted and may exist: read on while writing. */
  const readsOn = (first: string[]) =>
    first.length === firstLimit && (limit === 0 || limit > first.length);
  const connection = watchConnection(ctx);
  let rows: ListRows | undefined;
  let slot = false; // one of the `lists.limits.max` stream slots
  try {
    // A request pipelined behind another on its connection takes its snapshot when its
    // turn comes: its response cannot be written before.
    if (!res.socket && !(await ownTurn(res, connection.signal))) return;
    // A JSON list that its store joins in SQL (times), when short as one user's month
    // is: its body in one piece from one statement, no row read one by one, which costs
    // SQLite half of reading the same rows as a page (times/store.ts timeList), read on
    // a list worker thread (db/short-lists.ts). A longer one is paged below.
    const whole = !row && skip === 0 ? await listing.readWhole?.(firstLimit) : undefined;
    if (whole) {
      // The client went away while the list was read: nobody to send it to, and its
      // 'close' has been emitted already (waiting for it would keep the body's slot for
      // good: once all were kept, every list was read on the event loop).
      if (res.closed) {
        whole.sent?.();
        return;
      }
      // Once the response has closed (sent, or cut off) its body's memory may be reused.
      if (whole.sent) res.once('close', whole.sent);
      sendText(res, 200, body.contentType, whole.body, {
        ...body.headers,
        'X-Total-Count': String(whole.count),
        ...linkHeader(whole.count),
      });
      watchTail(ctx);
      return;
    }
    rows = listing.open();
    let first = rows.read(firstLimit, skip);
    slot = readsOn(first) && lists.tryTake();
    if (readsOn(first) && !slot) {
      // Every slot is taken. Wait for one holding neither a reader, nor a snapshot, nor
      // the rows read, then read again in a fresh snapshot.
      rows.close();
      rows = undefined;
      first = [];
      slot = await lists.take(connection.signal);
      if (!slot) {
        if (connection.signal.aborted) return; // nobody to answer
        throw tooManyStreams();
      }
      rows = listing.open();
      first = rows.read(firstLimit, skip);
    }
    const ended = first.length < firstLimit;
    if (ended && (first.length > 0 || skip === 0)) {
      // The whole answer is in hand: its snapshot goes back before the slow part,
      // writing to the socket, and the body goes out in one piece.
      rows.close();
      rows = undefined;
      const total = skip + first.length;
      const texts = row ? first.map(row) : first;
      const bytes = joinedBytes(body.begin, texts, body.separator, body.end);
      sendText(res, 200, body.contentType, bytes, {
        ...body.headers,
        'X-Total-Count': String(total),
        ...linkHeader(total),
      });
      watchTail(ctx);
      return;
    }
    const total = rows.count();
    const readOn = readsOn(first);
    const more = readOn
      ? rows.iterate(limit > 0 ? limit - first.length : -1, skip + first.length)
      : [];
    if (!readOn) {
      // A full page: every row is in hand, so the reader (and any slot) goes back
      // before the writing.
      rows.close();
      rows = undefined;
      if (slot) lists.give();
      slot = false;
    }
    startStream(res, 200, body.contentType, {
      ...body.headers,
      'X-Total-Count': String(total),
      ...linkHeader(total),
    });
    if (res.req.method === 'HEAD') return void res.end(); // no body: the rest is not read
    // CSV maps each row's JSON text; JSON rows are written as they are (no work per row).
    const parts = row ? [mapped(first, row), mapped(more, row)] : [first, more];
    let chunk = body.begin;
    let separator = '';
    for (const texts of parts) {
      for (const text of texts) {
        chunk += separator + text;
        separator = body.separator;
        if (chunk.length >= FLUSH_BYTES) {
          const flushed = res.write(chunk);
          chunk = '';
          if (!flushed) {
            const next = await progress(ctx, connection.signal);
            if (next === 'stalled') cutOff(ctx);
            if (next !== 'drained') return; // the client went away or was cut off
          }
        }
      }
    }
    // Reader and slot go back before the last bytes leave, which may take a while.
    rows?.close();
    rows = undefined;
    if (slot) lists.give();
    slot = false;
    res.end(`${chunk}${body.end}`);
    watchTail(ctx);
  } finally {
    rows?.close();
    if (slot) lists.give();
    connection.dispose();
  }
}

/** Same path and parameters with `skip` advanced; the token is not repeated. */
function nextPageUrl(url: URL, paging: Paging): string {
  const next = new URLSearchParams(url.searchParams);
  next.delete('token');
  next.set('skip', String(paging.skip + paging.limit));
  next.set('limit', String(paging.limit));
  return `${url.pathname}?${next.toString()}`;
}
