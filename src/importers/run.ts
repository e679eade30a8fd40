// An import from a byte stream (a file, a request body): the format's reader, then the
// engine. The one entry point of `admin import-from` and POST /v0/imports.

import type { Actor } from '../policy';
import { type CsvRecord, csvBatches } from './csv';
import { type ImportDeps, type ImportOptions, type ImportReport, runImport } from './engine';
import { FORMATS, NotThatFormat, type ReadTally, readRows } from './read';
import { isXlsx, xlsxBatches } from './xlsx';

export async function importStream(
  deps: ImportDeps,
  actor: Actor | null,
  options: ImportOptions,
  input: AsyncIterable<Buffer | string>,
  onProgress?: (rows: number) => void,
  /** How CSV is parsed: in-process, or on a worker thread (csv-thread.ts, the command). */
  csv: (input: AsyncIterable<Buffer | string>) => AsyncIterable<CsvRecord[]> = csvBatches,
): Promise<ImportReport> {
  const format = FORMATS[options.format];
  const tally: ReadTally = { dropped: new Map() };
  const records = async function* () {
    const source = input[Symbol.asyncIterator]();
    const first = await source.next();
    if (first.done) return;
    const head = Buffer.isBuffer(first.value) ? first.value : Buffer.from(first.value);
    const rest = async function* () {
      yield head;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        yield next.value;
      }
    };
    if (isXlsx(head)) {
      // Only Kimai exports spreadsheets; a spreadsheet of another tool is not its CSV.
      if (format.name !== 'kimai') {
        throw new NotThatFormat(format, [], `is a spreadsheet, not ${format.title} (CSV)`);
      }
      yield* xlsxBatches(rest());
    } else yield* csv(rest());
  };
  return runImport(
    deps,
    actor,
    options,
    readRows(format, records(), { tagsAsActivities: options.tagsAsActivities }, tally),
    tally,
    onProgress,
  );
}
