// Sends a list response (SPEC §6): X-Total-Count and Link headers, then a JSON array
// written row by row as the rows are read, so memory does not grow with the list and
// the first byte leaves after the first rows. Short lists are sent in one piece.
// What to list is the service's business (its `list` answers a Listing); this file
// only pages and writes, and runs no SQL.
import { JsonText } from '../json-text';
import type { Ctx } from './context';
import type { Paging } from './query';
import { sendJson, startJsonStream } from './respond';

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

/** What a service's `list(actor, query)` answers: the page asked for and how to read it. */
export interface Listing {
  paging: Paging;
  open(): ListRows;
}

const FLUSH_BYTES = 64 * 1024;
/**
 * Rows read before the headers go out. A list that ends within them (one user's month,
 * any page of a paged list) needs no count(*) for X-Total-Count and is sent whole; a
 * longer one is counted and then streamed on from where the first read stopped, in the
 * same snapshot.
 */
const FIRST_ROWS = 1000;

export async function sendList(ctx: Ctx, listing: Listing): Promise<void> {
  const { res } = ctx;
  const { paging } = listing;
  const { limit, skip } = paging; // limit 0: no limit
  const linkHeader = (total: number): Record<string, string> =>
    limit > 0 && skip + limit < total
      ? { Link: `<${nextPageUrl(ctx.url, paging)}>; rel="next"` }
      : {};
  let rows: ListRows | undefined = listing.open();
  try {
    const firstLimit = limit > 0 ? Math.min(limit, FIRST_ROWS) : FIRST_ROWS;
    const first = rows.read(firstLimit, skip);
    const ended = first.length < firstLimit;
    if (ended && (first.length > 0 || skip === 0)) {
      // The whole answer is in hand: its snapshot goes back before the slow part,
      // writing to the socket, and the body goes out in one piece.
      rows.close();
      rows = undefined;
      const total = skip + first.length;
      const body = new JsonText(`[${first.join(',')}]`);
      sendJson(res, 200, body, { 'X-Total-Count': String(total), ...linkHeader(total) });
      return;
    }
    const total = rows.count();
    startJsonStream(res, 200, { 'X-Total-Count': String(total), ...linkHeader(total) });
    if (res.req.method === 'HEAD') return void res.end(); // no body: the rest is not read
    const wantsMore = !ended && (limit === 0 || limit > first.length);
    const rest = wantsMore
      ? rows.iterate(limit > 0 ? limit - first.length : -1, skip + first.length)
      : [];
    let chunk = '[';
    let separator = '';
    for (const texts of [first, rest]) {
      for (const text of texts) {
        chunk += separator + text;
        separator = ',';
        if (chunk.length >= FLUSH_BYTES) {
          const flushed = res.write(chunk);
          chunk = '';
          if (!flushed && !(await drained(ctx))) return; // client went away
        }
      }
    }
    res.end(`${chunk}]`);
  } finally {
    rows?.close();
  }
}

/** Resolves true when the socket can take more, false when it closed. */
function drained({ res }: Ctx): Promise<boolean> {
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
