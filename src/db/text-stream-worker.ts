// Runs inside a worker thread: bodies made from a statement's rows in one snapshot, a
// piece at a time (db/text-streams.ts is the event loop's side). Each stream has a
// read-only connection of its own for as long as it is open: its statement is stepped
// between pieces, and better-sqlite3 allows nothing else on a connection meanwhile.
// A resource's worker entry (reports/report-worker.ts) calls serveTextStreams with what
// makes its body; this file knows no resource.
import { parentPort, workerData } from 'node:worker_threads';
import { workerOpenOptions } from './open';
import { createReaderPool, type Reader } from './readers';
import type { OpenText, TextReply, TextRequest, TextSource, TextWorkerData } from './text-streams';

export function serveTextStreams<R>(openText: OpenText<R>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTextStreams runs in a worker thread');
  const { file, ...native } = workerData as TextWorkerData;
  const readers = createReaderPool(file, workerOpenOptions(native));
  const open = new Map<number, { reader: Reader; source?: TextSource }>();

  /** Closes a stream's statement and gives its connection (and snapshot) back. */
  const finish = (id: number) => {
    const stream = open.get(id);
    if (!stream) return;
    open.delete(id);
    try {
      stream.source?.close();
    } finally {
      readers.release(stream.reader);
    }
  };

  /** What a request asks for; nothing is answered to a close. */
  const piece = (msg: Exclude<TextRequest<R>, 'stop'>): TextReply | undefined => {
    const { id } = msg;
    if ('close' in msg) {
      finish(id);
      return undefined;
    }
    let stream = open.get(id);
    if ('open' in msg) {
      const reader = readers.acquire();
      stream = { reader };
      open.set(id, stream);
      reader.db.exec('BEGIN');
      stream.source = openText(reader.sql, msg.open);
    }
    if (!stream?.source) return { id, error: `no text stream ${id}` };
    const { text, done } = stream.source.read(msg.size);
    if (done) finish(id);
    return { id, text, done };
  };

  port.on('message', (msg: TextRequest<R>) => {
    if (msg === 'stop') {
      for (const id of [...open.keys()]) finish(id);
      readers.close();
      port.close();
      return;
    }
    let reply: TextReply | undefined;
    try {
      reply = piece(msg);
    } catch (err) {
      try {
        finish(msg.id);
      } catch {
        // the connection is given back by the pool's close at the worker's stop
      }
      reply = { id: msg.id, error: err instanceof Error ? err.message : String(err) };
    }
    if (reply) port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies TextReply);
}
