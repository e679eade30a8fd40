// Runs inside a worker thread: short lists read whole (db/short-lists.ts) on a read-only
// connection of its own, so that the SQLite work of one user's month runs on a second
// core while the event loop goes on with HTTP. The body is copied into a slot of a buffer
// shared with the event loop, which sends it from there: no buffer is made in one thread
// and freed in the other (see short-lists.ts for why).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { type ListQuery, readWholeList, type WholeListSql } from './list-reader';
import type { NativeFiles } from './native';
import { openDatabase, statementCache, workerOpenOptions } from './open';

export interface ShortListWorkerData extends NativeFiles {
  file: string;
  /** The bodies' slots, `slotBytes` each. */
  slab: SharedArrayBuffer;
  slotBytes: number;
}

export interface ShortListRequest {
  id: number;
  /** The list's shape: its statements are `whole` when sent, else those sent before. */
  shape: number | undefined;
  whole: WholeListSql | undefined;
  params: ListQuery['params'];
  countParams: ListQuery['countParams'];
  cap: number;
  /** The slot to copy the body into. */
  slot: number;
}

/**
 * From the worker: `ready` once its connection is open; per request its list (`count`
 * rows, `length` bytes in its slot), `long` when it has more rows than the cap,
 * `tooLarge` when its body does not fit a slot, or the error that reading it threw.
 */
export type ShortListReply =
  | { ready: true }
  | { id: number; count: number; length: number }
  | { id: number; long: true }
  | { id: number; tooLarge: true }
  | { id: number; error: string };

const { file, slab, slotBytes, ...native } = workerData as ShortListWorkerData;
const db = openDatabase(file, { readonly: true, ...workerOpenOptions(native) });
const sql = statementCache(db);
const slots = Buffer.from(slab);
const port = parentPort;

/**
 * Each body read from SQLite is a buffer outside V8's heap, garbage once copied into its
 * slot. This thread makes few objects of its own, so its young generation fills slowly
 * and V8 would give those buffers back only after tens of MB (measured in the server
 * under month reads: 49 MB in use in malloc, 24 MB with this); a minor collection every
 * COLLECT_EVERY lists does it (~0.1 ms each).
 */
const COLLECT_EVERY = 4;
setFlagsFromString('--expose-gc');
const collectYoung = runInNewContext('gc') as (options: { type: 'minor' }) => void;
let served = 0;
port?.postMessage({ ready: true } satisfies ShortListReply);

/** The statements of each shape sent so far. */
const shapes = new Map<number, WholeListSql>();

function answer(request: ShortListRequest): ShortListReply {
  const { id, shape, whole: sent, params, countParams, cap, slot } = request;
  if (sent && shape !== undefined) shapes.set(shape, sent);
  const statements = sent ?? (shape === undefined ? undefined : shapes.get(shape));
  if (!statements) return { id, error: 'a list shape this worker was never sent' };
  const whole = readWholeList(sql, { whole: statements, params, countParams }, cap);
  if (!whole) return { id, long: true };
  const { count, body } = whole;
  if (body.length > slotBytes) return { id, tooLarge: true };
  body.copy(slots, slot * slotBytes);
  return { id, count, length: body.length };
}

port?.on('message', (msg: ShortListRequest | 'stop') => {
  if (msg === 'stop') {
    db.close();
    port.close();
    return;
  }
  let reply: ShortListReply;
  try {
    db.exec('BEGIN');
    reply = answer(msg);
  } catch (err) {
    reply = { id: msg.id, error: err instanceof Error ? err.message : String(err) };
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
  port.postMessage(reply);
  if (++served % COLLECT_EVERY === 0) collectYoung({ type: 'minor' });
});
