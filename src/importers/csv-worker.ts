// Runs inside a worker thread: csv-parse (csvBatches) over the pieces of a file the
// event loop posts, so that parsing, a third of a large import's CPU on one core, runs on
// a second one while the import engine works on the batch before (importers/csv-thread.ts).
// Each batch goes back as one array of all its fields and one Int32Array of each record's
// line and field count: two objects to clone rather than an array per record.
import { parentPort } from 'node:worker_threads';
import { CsvSyntaxError, csvBatches } from './csv';

/** To the worker: a piece of the file, or its end. */
export type CsvWorkerInput = { piece: Uint8Array } | { end: true };

/**
 * From the worker: a piece taken (`taken`, its bytes), a batch of records, the file's
 * syntax error (the record's line), another failure, or the end.
 */
export type CsvWorkerOutput =
  | { taken: number }
  | { fields: string[]; records: Int32Array }
  | { syntax: { line: number; message: string } }
  | { failed: string }
  | { done: true };

/**
 * Records a message holds: the event loop regroups them into csvBatches's batches. Kept
 * small so that what one message clones into the event loop's heap fits its young
 * generation (heap-growth.ts) and dies there: 10,000 records at once tripled its garbage
 * collection time.
 */
export const POSTED_RECORDS = 1_000;

const port = parentPort as NonNullable<typeof parentPort>;
const post = (message: CsvWorkerOutput, transfer?: ArrayBuffer[]) =>
  port.postMessage(message, transfer);

// The pieces posted and not yet read, and the reader waiting for one.
const pieces: CsvWorkerInput[] = [];
let waiting: ((input: CsvWorkerInput) => void) | undefined;
port.on('message', (input: CsvWorkerInput) => {
  if (waiting) {
    const w = waiting;
    waiting = undefined;
    w(input);
  } else pieces.push(input);
});

async function* input(): AsyncGenerator<Buffer> {
  for (;;) {
    const next =
      pieces.shift() ??
      (await new Promise<CsvWorkerInput>((resolve) => {
        waiting = resolve;
      }));
    if ('end' in next) return;
    post({ taken: next.piece.byteLength });
    yield Buffer.from(next.piece.buffer, next.piece.byteOffset, next.piece.byteLength);
  }
}

async function run() {
  try {
    for await (const batch of csvBatches(input(), POSTED_RECORDS)) {
      let count = 0;
      for (const record of batch) count += record.fields.length;
      const fields: string[] = new Array(count);
      const records = new Int32Array(batch.length * 2);
      let f = 0;
      for (let i = 0; i < batch.length; i++) {
        const record = batch[i] as (typeof batch)[number];
        records[2 * i] = record.line;
        records[2 * i + 1] = record.fields.length;
        for (const field of record.fields) fields[f++] = field;
      }
      post({ fields, records }, [records.buffer as ArrayBuffer]);
    }
    post({ done: true });
  } catch (err) {
    if (err instanceof CsvSyntaxError) {
      post({ syntax: { line: err.line, message: err.message } });
    } else post({ failed: (err as Error)?.message ?? String(err) });
  }
}

void run();
