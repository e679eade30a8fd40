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
  let out: CsvRecord[] = [];
  let headerSent = false;
  let failure: unknown;
  // Line numbers are counted here rather than asked of csv-parse (`info`, an object per
  // record: a fifth of the parse): a record spans one line more per newline in its fields,
  // and the blank lines csv-parse would skip come as one empty field.
  let nextLine = 1;
  const drain = () => {
    const p = parser as ReturnType<typeof parse>;
    for (;;) {
      const fields = p.read() as string[] | null;
      if (fields === null) return;
      const line = nextLine;
      nextLine++;
      for (const f of fields) {
        for (let at = f.indexOf('\n'); at >= 0; at = f.indexOf('\n', at + 1)) nextLine++;
      }
      if (fields.length === 1 && fields[0] === '') continue;
      out.push({ line, fields });
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
      // Not guessed from the first line: a spreadsheet may have saved CRLF there and LF later.
      record_delimiter: ['\r\n', '\n'],
      relax_column_count: true,
    });
    // Kept here and thrown by feed(), where the caller awaits the batches.
    parser.on('error', (err) => {
      failure = err;
    });
  };
  // csv-parse reports some errors after write() returns (the stream destroys itself on
  // the next tick): checked before and after each piece, and once more after the end.
  const check = () => {
    if (!failure) return;
    // The record being read when it failed starts on nextLine (csv-parse names the line
    // where it noticed: for a quote never closed, the file's last).
    throw new CsvSyntaxError(nextLine, (failure as Error).message ?? 'not CSV');
  };
  const feed = (chunk: Buffer | string, end = false) => {
    const p = parser as ReturnType<typeof parse>;
    check();
    if (end) p.end();
    else p.write(chunk);
    check();
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
  await new Promise((resolve) => setImmediate(resolve));
  check();
  drain();
  yield* take();
  if (out.length > 0) {
    const rest = out;
    out = [];
    yield rest;
  }
}
