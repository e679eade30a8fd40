// csvBatches on a worker thread (importers/csv-worker.ts), for `admin import-from
// --dry-run`: the command's event loop has nothing else to do, so while the import engine
// checks one batch, csv-parse reads the next on the machine's second core. The records,
// their lines and a CsvSyntaxError's line are those csvBatches gives in-process (the
// worker runs it); only the work moves.
import { csvWorkerSource } from '../embedded';
import { startWorker } from '../heap-growth';
import { BATCH_RECORDS, type CsvRecord, CsvSyntaxError } from './csv';
import type { CsvWorkerInput, CsvWorkerOutput } from './csv-worker';

/**
 * How far the reading runs ahead of the engine: bytes posted and not yet parsed, and
 * messages of records (POSTED_RECORDS each) not yet taken. About one batch of 10,000
 * rows either way: the worker parses the next batch while the engine takes one, and
 * what is held stays bounded.
 */
const AHEAD_BYTES = 1024 * 1024;
const AHEAD_MESSAGES = 12;

type Batch = Extract<CsvWorkerOutput, { fields: string[] }>;

/** A batch as the worker packed it, as csvBatches's records. */
function unpack({ fields, records }: Batch): CsvRecord[] {
  const out: CsvRecord[] = new Array(records.length / 2);
  let f = 0;
  for (let i = 0; i < out.length; i++) {
    const n = records[2 * i + 1] as number;
    out[i] = { line: records[2 * i] as number, fields: fields.slice(f, f + n) };
    f += n;
  }
  return out;
}

/**
 * csvBatches(input, batchRecords), parsed on a worker thread: the same batches (the
 * header alone, then `batchRecords` each), regrouped from the worker's messages. A
 * syntax error drops the records of the batch it broke, as csvBatches does.
 */
export async function* csvBatchesInWorker(
  input: AsyncIterable<Buffer | string>,
  batchRecords = BATCH_RECORDS,
): AsyncGenerator<CsvRecord[], void> {
  const worker = startWorker(csvWorkerSource(), { eval: true });
  // Whatever stops the import early, the worker never keeps the command running.
  worker.unref();
  const post = (message: CsvWorkerInput) => worker.postMessage(message);
  const source = input[Symbol.asyncIterator]();
  const queue: Exclude<CsvWorkerOutput, { taken: number }>[] = [];
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  let ahead = 0;
  let reading = false;
  let ended = false;
  const woken = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const pump = () => {
    if (reading || ended || failure || ahead >= AHEAD_BYTES || queue.length >= AHEAD_MESSAGES) {
      return;
    }
    reading = true;
    source.next().then(
      (next) => {
        reading = false;
        if (next.done) {
          ended = true;
          post({ end: true });
          return;
        }
        const piece = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        ahead += piece.byteLength;
        post({ piece });
        pump();
      },
      (error: unknown) => {
        reading = false;
        failure = { error };
        woken();
      },
    );
  };
  worker.on('message', (message: CsvWorkerOutput) => {
    if ('taken' in message) {
      ahead -= message.taken;
      pump();
      return;
    }
    queue.push(message);
    woken();
  });
  worker.on('error', (error) => {
    failure = { error };
    woken();
  });

  let header = true;
  let batch: CsvRecord[] = [];
  try {
    pump();
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        if (failure) throw failure.error;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      pump();
      if ('done' in message) {
        if (batch.length > 0) yield batch;
        return;
      }
      if ('syntax' in message) {
        throw new CsvSyntaxError(message.syntax.line, message.syntax.message);
      }
      if ('failed' in message) throw new Error(message.failed);
      if (header) {
        header = false;
        yield unpack(message);
        continue;
      }
      for (const record of unpack(message)) batch.push(record);
      if (batch.length >= batchRecords) {
        const full = batch;
        batch = [];
        yield full;
      }
    }
  } finally {
    void worker.terminate();
    if (!ended) void source.return?.();
  }
}
