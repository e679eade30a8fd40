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
// Each list is read in a snapshot of its own (BEGIN … ROLLBACK), prepared once.
const begin = db.prepare('BEGIN');
const rollback = db.prepare('ROLLBACK');
const slots = Buffer.from(slab);
const port = parentPort;

/**
 * Each body read from SQLite (~170 KB for a month) is a buffer outside V8's heap, garbage
 * once copied into its slot, and V8 frees such buffers only when it collects: this
 * thread makes few objects of its own, so it would collect after tens of MB (measured in
 * the server under month reads: 49 MB in use in malloc, 24 MB when they go at once).
 *
 * `ArrayBuffer.prototype.transfer(0)` detaches a buffer, and V8 frees its memory then.
 * Node 20's V8 has it behind a flag, which takes effect in contexts made after it is set:
 * the function is taken from one such (Node 22 has it as it is). Where it is missing, a
 * minor collection every COLLECT_EVERY lists gives the buffers back instead, as this did
 * before: each took ~0.3 ms, and side by side under the month reads of the benchmark
 * (executable, one build, alternating turns) the transfer gave 941–955 lists/s (two
 * turns) against 701–956 (six; p99 24.1–24.5 against 23.4–31.6 ms).
 */
type Transfer = (this: ArrayBuffer, length: number) => ArrayBuffer;

/** ArrayBuffer.prototype.transfer: Node 22's own; Node 20's from behind its flag. */
function arrayBufferTransfer(): Transfer | undefined {
  const own = (ArrayBuffer.prototype as { transfer?: Transfer }).transfer;
  if (typeof own === 'function') return own;
  setFlagsFromString('--harmony-rab-gsab-transfer');
  return runInNewContext('ArrayBuffer.prototype.transfer') as Transfer | undefined;
}

let transfer = arrayBufferTransfer();
const COLLECT_EVERY = 4;
setFlagsFromString('--expose-gc');
const collectYoung = runInNewContext('gc') as (options: { type: 'minor' }) => void;
let served = 0;

/**
 * Gives `body`'s memory back now, when it is a buffer of its own (as SQLite's are). A
 * buffer that cannot be detached leaves the worker collecting every COLLECT_EVERY lists
 * from then on; its list has been copied already and is answered all the same.
 */
function release(body: Buffer): void {
  const { buffer } = body;
  if (!transfer || !(buffer instanceof ArrayBuffer) || buffer.byteLength !== body.length) return;
  try {
    transfer.call(buffer, 0);
  } catch {
    transfer = undefined;
  }
}

/** After each list: collects every COLLECT_EVERY lists when bodies cannot be released. */
function afterList(): void {
  if (!transfer && ++served % COLLECT_EVERY === 0) collectYoung({ type: 'minor' });
}

port?.postMessage({ ready: true } satisfies ShortListReply);

/** The statements of each shape sent so far. */
const shapes = new Map<number, WholeListSql>();

function answer(request: ShortListRequest): ShortListReply {
  const { id, shape, whole: sent, params, cap, slot } = request;
  if (sent && shape !== undefined) shapes.set(shape, sent);
  const statements = sent ?? (shape === undefined ? undefined : shapes.get(shape));
  if (!statements) return { id, error: 'a list shape this worker was never sent' };
  const whole = readWholeList(sql, { whole: statements, params }, cap);
  if (!whole) return { id, long: true };
  const { count, body } = whole;
  const fits = body.length <= slotBytes;
  const length = fits ? body.copy(slots, slot * slotBytes) : 0;
  release(body);
  return fits ? { id, count, length } : { id, tooLarge: true };
}

port?.on('message', (msg: ShortListRequest | 'stop') => {
  if (msg === 'stop') {
    db.close();
    port.close();
    return;
  }
  let reply: ShortListReply;
  try {
    begin.run();
    reply = answer(msg);
  } catch (err) {
    reply = { id: msg.id, error: err instanceof Error ? err.message : String(err) };
  } finally {
    if (db.inTransaction) rollback.run();
  }
  port.postMessage(reply);
  afterList();
});
