// Sends a body made elsewhere a piece at a time (a large report, made on the report
// worker): in one piece with its Content-Length when its first piece is all of it, else
// streamed as a list is (http/list.ts), without Content-Length: the head once the first
// piece is in hand, then each piece as the client takes the last. A streamed body holds
// a database reader and its snapshot until its client has taken it, so it takes one of
// the stream slots lists take (http/streams.ts; none free within 1 s: 503) and is cut off
// when the client takes nothing for the stall limit (http/stream-watch.ts).
import type { Ctx } from './context';
import { sendText, startStream } from './respond';
import { cutOff, ownTurn, progress, watchConnection, watchTail } from './stream-watch';
import { tooManyStreams } from './streams';

/** A body read a piece at a time (db/text-streams.ts TextStream). */
export interface Pieces {
  /** The next piece, of at least `size` characters unless it is the last (`done`). */
  next(size: number): Promise<{ text: string; done: boolean }>;
  /** Gives back what reading it holds; called once, also after the last piece. */
  close(): void;
}

/**
 * The first piece: a body up to this size is sent whole, with Content-Length (a large
 * report of few groups, e.g. five years of everyone by activity, a few KB).
 */
const WHOLE_CHARS = 1024 * 1024;
/** The pieces after it: what a list writes at a time. */
const PIECE_CHARS = 64 * 1024;

export async function sendPieces(
  ctx: Ctx,
  /** Opens the body in a new snapshot (again, when it had to wait for a slot). */
  open: () => Pieces,
  contentType: string,
  headers: Record<string, string>,
): Promise<void> {
  const { res, lists } = ctx;
  const connection = watchConnection(ctx);
  let pieces: Pieces | undefined;
  /** A piece asked for and not yet taken: settled, or abandoned, without an unhandled rejection. */
  let ahead: Promise<{ text: string; done: boolean }> | undefined;
  let slot = false;
  const close = () => {
    ahead?.catch(() => {});
    ahead = undefined;
    pieces?.close();
    pieces = undefined;
  };
  try {
    // A request pipelined behind another on its connection takes its snapshot when its
    // turn comes: its response cannot be written before.
    if (!res.socket && !(await ownTurn(res, connection.signal))) return;
    pieces = open();
    let piece = await pieces.next(WHOLE_CHARS);
    if (piece.done) {
      close();
      sendText(res, 200, contentType, piece.text, headers);
      watchTail(ctx);
      return;
    }
    slot = lists.tryTake();
    if (!slot) {
      // Every slot is taken. Wait for one holding neither a reader nor a snapshot, then
      // make the body again in a fresh snapshot.
      close();
      slot = await lists.take(connection.signal);
      if (!slot) {
        if (connection.signal.aborted) return; // nobody to answer
        throw tooManyStreams();
      }
      pieces = open();
      piece = await pieces.next(WHOLE_CHARS);
    }
    if (connection.signal.aborted) return; // the client left while it was being made
    startStream(res, 200, contentType, headers);
    if (res.req.method === 'HEAD') return void res.end(); // no body: the rest is not made
    for (;;) {
      // The next piece is made while this one is written.
      ahead = piece.done ? undefined : pieces.next(PIECE_CHARS);
      const flushed = res.write(piece.text);
      if (!ahead) break;
      if (!flushed) {
        const next = await progress(ctx, connection.signal);
        if (next === 'stalled') cutOff(ctx);
        if (next !== 'drained') return; // the client went away or was cut off
      }
      piece = await ahead;
      ahead = undefined;
    }
    // Reader and slot go back before the last bytes leave, which may take a while.
    close();
    lists.give();
    slot = false;
    res.end();
    watchTail(ctx);
  } finally {
    close();
    if (slot) lists.give();
    connection.dispose();
  }
}
