// `timetrack admin import-from FORMAT FILE`: another tracker's export (Toggl Track,
// Clockify, Harvest, Kimai, solidtime) into this instance, through the import engine that
// POST /v0/imports uses too (src/importers/). Works while the server runs: each batch of
// rows is one short write transaction.
import { createReadStream, existsSync } from 'node:fs';
import { isTimeZone } from '../dates';
import { READER_CACHE_KIB } from '../db/open';
import { createReaderPool } from '../db/readers';
import { csvBatches } from '../importers/csv';
import { csvBatchesInWorker } from '../importers/csv-thread';
import { ImportOptionError, type ImportOptions, ImportStopped } from '../importers/engine';
import { FORMAT_NAMES, type FormatName } from '../importers/format';
import { NotThatFormat } from '../importers/read';
import { reportText } from '../importers/report-text';
import { importStream } from '../importers/run';
import { CliError, openForCommand, refuseDirectory } from './cli';
import { importStores } from './import-stores';
import { type ImportWriterThread, startImportWriter } from './import-writer';

/**
 * Records the command takes from the CSV reader at once (importers/csv.ts hands over up
 * to 10,000). Only the rows to write are held until their batch's COMMIT; the records
 * read and the rows made from them are garbage once checked, and a tenth as many of them
 * at once took the peak RSS of 200,000 rows from 181 to 152 MB at the same speed. A dry
 * run takes them the same way (1,000,000 rows: 16.0–16.7 → 14.8–15.0 s, 186 → 174 MB,
 * against pieces of 10,000 each checked as a batch of its own). A file that breaks off
 * keeps the rows of the pieces handed over before the break.
 */
const PIECE_RECORDS = 1_000;

/**
 * The writer thread's page cache, KiB (db/open.ts CACHE_KIB: 16 MiB). Half the writer's
 * usual: an import batch walks each index once in order (importers/plan.ts), so pages
 * are not read twice and a larger cache bought no speed, only RSS (on 100,000 rows, 4 MiB
 * ran as fast as 16).
 */
const IMPORT_CACHE_KIB = 4 * 1024;

export interface ImportFromOptions extends Omit<ImportOptions, 'format'> {
  db: string;
  format: string;
  file: string;
  json: boolean;
}

/** Answers what to print; a refused file or option is a CliError (one line, exit 1). */
export async function importFromCommand(opts: ImportFromOptions): Promise<string> {
  if (!(FORMAT_NAMES as readonly string[]).includes(opts.format)) {
    throw new CliError(`unknown format ${opts.format}: use one of ${FORMAT_NAMES.join(', ')}`);
  }
  if (!existsSync(opts.file)) throw new CliError(`no file ${opts.file}`);
  refuseDirectory(opts.file, 'an export file');
  if (opts.timezone !== undefined && !isTimeZone(opts.timezone)) {
    throw new CliError(`unknown time zone ${opts.timezone}`);
  }
  const db = openForCommand(opts.db);
  // This connection only reads (the writer thread has its own): a reader's page cache.
  db.pragma(`cache_size = -${READER_CACHE_KIB}`);
  const readers = createReaderPool(opts.db);
  // Pieces of 64 KiB (~500 rows): what each makes is garbage before the next is read, so
  // the import's young generation stays at its first size (heap-growth.ts). 1 MiB pieces
  // held ~8,000 rows' records at once and took 30–40 MB more RSS.
  const file = createReadStream(opts.file, { highWaterMark: 64 * 1024 });
  const options: ImportOptions = {
    format: opts.format as FormatName,
    dryRun: opts.dryRun,
    createUsers: opts.createUsers,
    defaultActivity: opts.defaultActivity,
    tagsAsActivities: opts.tagsAsActivities,
    timezone: opts.timezone,
  };
  // A real import writes on a thread of its own (import-writer-worker.ts), one batch
  // while the engine checks the next on this one.
  let writer: ImportWriterThread | undefined;
  const deps = importStores(db, readers);
  try {
    // A dry run parses on a worker thread (csv-thread.ts): the parsing of a piece overlaps
    // the engine's checks of the one before (1,000,000 rows: 20.5 → 16.9 s, for ~25 MB
    // more peak RSS). A real import does not: its second thread is the writer's, and
    // records cloned from a parsing thread cost this one about what parsing them does.
    const csv = opts.dryRun
      ? (input: AsyncIterable<Buffer | string>) => csvBatchesInWorker(input, PIECE_RECORDS)
      : (input: AsyncIterable<Buffer | string>) => csvBatches(input, PIECE_RECORDS);
    if (!opts.dryRun) writer = await startImportWriter(opts.db, IMPORT_CACHE_KIB);
    const writePlan = writer?.write;
    const report = await importStream({ ...deps, writePlan }, null, options, file, undefined, csv);
    return opts.json ? JSON.stringify(report, null, 2) : reportText(report);
  } catch (err) {
    if (err instanceof NotThatFormat) throw new CliError(`${opts.file} ${err.message}`);
    if (err instanceof ImportOptionError) throw new CliError(err.message);
    if (err instanceof ImportStopped) {
      // The report so far on stdout, the one-line error on stderr.
      process.stdout.write(
        `${opts.json ? JSON.stringify(err.report, null, 2) : reportText(err.report)}\n`,
      );
      throw new CliError(`${opts.file}: ${err.message}`);
    }
    throw err;
  } finally {
    await writer?.close();
    file.destroy();
    readers.close();
    db.close();
  }
}
