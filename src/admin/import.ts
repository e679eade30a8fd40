// `timetrack admin import <file>`: loads an export (admin export) into an empty database,
// keeping every id, so the result exports to the same bytes. One transaction: a file
// that fails anywhere leaves the database as it was. A URI the API would refuse (a
// `javascript:` issue_uri) is left out and named in the summary (stored-uris.ts).

import { createReadStream, existsSync } from 'node:fs';
import type { Db } from '../db/open';
import { openWrite } from '../db/open';
import { migrations } from '../embedded';
import { passwordHashProblem } from './check';
import { CliError, openForCommand, refuseDirectory } from './cli';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportLine } from './export';
import { createRowWriter, firstNonEmptyTable, RowShapeError } from './instance-tables';
import { leaveOutRefusedUris } from './stored-uris';

/**
 * The longest line import reads. An export's lines are far shorter (the longest field
 * the API takes is 10,000 characters); the limit keeps a wrong file (/dev/zero, a
 * binary) from filling memory before it is refused.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export async function importCommand(opts: { db: string; file: string }): Promise<string> {
  if (!existsSync(opts.file)) throw new CliError(`no file ${opts.file}`);
  refuseDirectory(opts.file, 'an export file');
  const lines = readLines(opts.file, MAX_LINE_BYTES);
  try {
    return await importLines(opts, lines);
  } finally {
    await lines.return(undefined); // closes the file
  }
}

/**
 * The file's lines (UTF-8, without their `\n` or `\r\n`), read as they come; a line
 * longer than maxBytes is an error naming it, found after reading at most maxBytes of it.
 */
async function* readLines(file: string, maxBytes: number): AsyncGenerator<string, void> {
  const stream = createReadStream(file);
  const pending: Buffer[] = []; // the start of the current line, from earlier chunks
  let pendingBytes = 0;
  let lineNo = 1;
  const tooLong = () =>
    new CliError(`${file} line ${lineNo} is longer than ${maxBytes / 1024 / 1024} MiB`);
  const text = (part: Buffer) => {
    const whole = pending.length === 0 ? part : Buffer.concat([...pending, part]);
    pending.length = 0;
    pendingBytes = 0;
    const end =
      whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
    return whole.toString('utf8', 0, end);
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        if (pendingBytes + nl - start > maxBytes) throw tooLong();
        yield text(chunk.subarray(start, nl));
        lineNo++;
        start = nl + 1;
      }
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxBytes) throw tooLong();
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (pending.length > 0) yield text(Buffer.alloc(0));
}

async function importLines(
  opts: { db: string; file: string },
  lines: AsyncIterator<string>,
): Promise<string> {
  const first = await lines.next();
  const headerSchema = parseHeader(opts.file, first.done ? undefined : first.value);

  // Checked before the target is opened, so a refused file creates no database.
  const known = Math.max(0, ...migrations().map((m) => m.version));
  if (headerSchema > known) {
    throw new CliError(
      `${opts.file} is from schema version ${headerSchema}, newer than this timetrack knows (${known}); use a newer timetrack`,
    );
  }
  const db = openForCommand(opts.db);
  try {
    assertEmpty(db, opts.db);
    const write = createRowWriter(db);
    let lineNo = 1;
    let rows = 0;
    const leftOut: string[] = [];
    const transaction = openWrite(db);
    try {
      assertEmpty(db, opts.db); // checked again under the write lock
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        lineNo++;
        if (next.value === '') continue;
        const line = parseLine(next.value);
        if (!line) throw new CliError(`${opts.file} line ${lineNo}: not a {"table", "row"} object`);
        const refused = refusedRow(line);
        if (refused) throw new CliError(`${opts.file} line ${lineNo}: ${refused}`);
        for (const problem of leaveOutRefusedUris(line.table, line.row)) {
          const uuid = typeof line.row.uuid === 'string' ? ` ${line.row.uuid}` : '';
          leftOut.push(`line ${lineNo} (${line.table}${uuid}): ${problem}`);
        }
        try {
          write(line.table, line.row);
        } catch (err) {
          // A row the schema refuses (unknown column, constraint, unbindable value).
          const refused =
            err instanceof RowShapeError ||
            err instanceof TypeError ||
            err instanceof RangeError ||
            typeof (err as { code?: unknown }).code === 'string';
          if (!refused) throw err;
          throw new CliError(`${opts.file} line ${lineNo}: ${(err as Error).message}`);
        }
        rows++;
      }
      transaction.commit();
    } catch (err) {
      transaction.rollback();
      throw err;
    }
    const done = `Imported ${rows} rows from ${opts.file} into ${opts.db}`;
    if (leftOut.length === 0) return done;
    return [
      done,
      `Left out (set to null) ${leftOut.length} URI${leftOut.length === 1 ? '' : 's'} the API would refuse:`,
      ...leftOut.map((line) => `  - ${line}`),
    ].join('\n');
  } finally {
    db.close();
  }
}

function parseHeader(file: string, text: string | undefined): number {
  let header: unknown;
  try {
    header = JSON.parse(text ?? '');
  } catch {
    // reported below
  }
  const h = header as { format?: unknown; version?: unknown; schema?: unknown } | undefined;
  if (!h || h.format !== EXPORT_FORMAT) {
    throw new CliError(`${file} is not a timetrack export (no ${EXPORT_FORMAT} header line)`);
  }
  if (h.version !== EXPORT_VERSION) {
    throw new CliError(
      `${file} is export format version ${String(h.version)}; this timetrack reads ${EXPORT_VERSION}`,
    );
  }
  if (typeof h.schema !== 'number' || !Number.isInteger(h.schema)) {
    throw new CliError(`${file} has no schema version in its header`);
  }
  return h.schema;
}

function parseLine(text: string): ExportLine | undefined {
  try {
    const line = JSON.parse(text) as Partial<ExportLine> | null;
    const row = line?.row;
    if (typeof line?.table !== 'string' || typeof row !== 'object' || !row || Array.isArray(row)) {
      return undefined;
    }
    return line as ExportLine;
  } catch {
    return undefined;
  }
}

/**
 * A row the API would never have written: a password hash that logins do not compare
 * (SPEC §2.4: bcrypt of cost 04-14), refused like any other bad row.
 */
function refusedRow(line: ExportLine): string | undefined {
  if (line.table !== 'users') return undefined;
  const problem = passwordHashProblem(String(line.row.username), line.row.password_hash ?? null);
  return problem && `${problem}; set its password_hash to null to import it without one`;
}

/** Import and migration write only into a database that holds nothing yet. */
export function assertEmpty(db: Db, file: string): void {
  const table = firstNonEmptyTable(db);
  if (table !== undefined) {
    throw new CliError(`${file} is not empty (table ${table} has rows); use a new database file`);
  }
}
