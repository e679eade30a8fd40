// `timetrack admin export`: the whole instance as JSON lines (SPEC §8.1). A header line,
// then one line per row, tables in dependency order, rows in key order, columns in
// declaration order, values as stored (ms timestamps, ids, hashes, the signing key), so
// the same database always exports to the same bytes. Rows are streamed, never loaded.
import { once } from 'node:events';
import { createWriteStream, openSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { CliError } from './cli';
import {
  INSTANCE_TABLES,
  iterateRows,
  openExistingInstance,
  schemaVersionOf,
} from './instance-tables';

export const EXPORT_FORMAT = 'timetrack-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  schema: number;
}

/** One line of an export after the header. */
export interface ExportLine {
  table: string;
  row: Record<string, unknown>;
}

const FLUSH_AT = 64 * 1024;

/** Writes the export to --output (a new file) or stdout; returns the line to print, if any. */
export async function exportCommand(opts: {
  db: string;
  output?: string;
}): Promise<string | undefined> {
  const db = openExistingInstance(opts.db);
  let out: Writable = process.stdout;
  if (opts.output !== undefined) {
    try {
      out = createWriteStream('', { fd: openSync(opts.output, 'wx') });
    } catch (err) {
      db.close();
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new CliError(`${opts.output} already exists; choose a new file`);
      }
      throw new CliError(`cannot write ${opts.output}: ${(err as Error).message}`);
    }
  }
  // A closed pipe (`| head`) or a full disk surfaces as a stream error, maybe later.
  let writeError: Error | undefined;
  out.on('error', (err) => {
    writeError ??= err;
  });
  let rows = 0;
  let buffer = '';
  const flush = async () => {
    if (buffer !== '' && !out.write(buffer)) await once(out, 'drain');
    buffer = '';
    if (writeError) throw writeError;
  };
  try {
    // One read transaction: every table is read from the same snapshot while a server
    // keeps writing.
    db.exec('BEGIN');
    const header: ExportHeader = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      schema: schemaVersionOf(db),
    };
    buffer += `${JSON.stringify(header)}\n`;
    for (const table of INSTANCE_TABLES) {
      for (const row of iterateRows(db, table)) {
        const line: ExportLine = { table: table.name, row };
        buffer += `${JSON.stringify(line)}\n`;
        rows++;
        if (buffer.length >= FLUSH_AT) await flush();
      }
    }
    await flush();
    db.exec('COMMIT');
  } catch (err) {
    if (opts.output !== undefined) {
      out.destroy();
      rmSync(opts.output, { force: true }); // no half export left behind
    }
    if (writeError) {
      throw new CliError(`cannot write ${opts.output ?? 'stdout'}: ${writeError.message}`);
    }
    throw err;
  } finally {
    db.close();
  }
  if (opts.output === undefined) return undefined;
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return `Exported ${rows} rows to ${opts.output}`;
}
