// A CSV export read as it arrives, in batches of records: csv-parse does the quoting
// (commas, quotes and newlines inside quoted fields), this file the rest trackers differ
// in: a UTF-8 byte order mark, `,` or `;` between fields (spreadsheets in locales that
// write decimal commas use `;`), and each record's first line for the report.
import { parse } from 'csv-parse';

export interface CsvRecord {
  /** The file's line (1-based) where the record starts. */
  line: number;
  fields: string[];
}

/** The most records handed over at once: the import engine writes them as one batch. */
export const BATCH_RECORDS = 10_000;

/**
 * The separator of a header line: whichever of `;` and `,` it has more of outside quotes
 * (a header names a dozen columns, so the count is never close), `,` when neither.
 */
export function separatorOf(headerLine: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ',') commas++;
    else if (!quoted && c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** Thrown for text that is not CSV at all (an unclosed quote, a binary file). */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The records of a CSV byte stream, in batches of at most `batch`, the header first (in
 * a batch of its own). The stream is read as the batches are taken: never the whole file.
 */
export async function* csvBatches(
  input: AsyncIterable<Buffer | string>,
  batch = BATCH_RECORDS,
): AsyncGenerator<CsvRecord[], void> {
  let parser: ReturnType<typeof parse> | undefined;
  let head = Buffer.alloc(0);
  let lastLine = 0;
  let lastEmpty = 0;
  let out: CsvRecord[] = [];
  let headerSent = false;
  let failure: unknown;
  const drain = () => {
    const p = parser as ReturnType<typeof parse>;
    for (;;) {
      const r = p.read() as { record: string[]; info: { lines: number; empty_lines: number } };
      if (r === null) return;
      const line = lastLine + 1 + (r.info.empty_lines - lastEmpty);
      lastLine = r.info.lines;
      lastEmpty = r.info.empty_lines;
      out.push({ line, fields: r.record });
    }
  };
  const start = (bytes: Buffer) => {
    const firstLine = bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] as string;
    parser = parse({
      bom: true,
      delimiter: separatorOf(firstLine),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    });
    // Kept here and thrown by feed(), where the caller awaits the batches.
    parser.on('error', (err) => {
      failure = err;
    });
  };
  const feed = (chunk: Buffer | string, end = false) => {
    const p = parser as ReturnType<typeof parse>;
    if (end) p.end();
    else p.write(chunk);
    if (failure) {
      const info = failure as { lines?: number; message?: string };
      throw new CsvSyntaxError(info.lines ?? lastLine + 1, info.message ?? 'not CSV');
    }
    drain();
  };
  const take = function* (): Generator<CsvRecord[]> {
    if (!headerSent && out.length > 0) {
      headerSent = true;
      yield out.splice(0, 1);
    }
    while (out.length >= batch) yield out.splice(0, batch);
  };

  for await (const chunk of input) {
    if (!parser) {
      // The separator is decided on the header line: wait until it is whole (or 64 KiB).
      head = Buffer.concat([head, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
      if (head.indexOf(0x0a) < 0 && head.length < 65536) continue;
      start(head);
      feed(head);
      head = Buffer.alloc(0);
    } else feed(chunk);
    yield* take();
  }
  if (!parser) {
    if (head.length === 0) return;
    start(head);
    feed(head);
  }
  feed('', true);
  yield* take();
  if (out.length > 0) {
    const rest = out;
    out = [];
    yield rest;
  }
}
