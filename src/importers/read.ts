// A tracker's export → batches of normalized rows: the header is checked against the
// format (a file that is not it is refused with the columns it lacks, before any row), each
// record becomes a row or a problem, and the columns with no home here are tallied.

import { clockify } from './clockify';
import { type CsvRecord, CsvSyntaxError, csvBatches } from './csv';
import {
  type Cells,
  type FormatName,
  type ImportFormat,
  type ImportRow,
  type RowProblem,
  rowKey,
} from './format';
import { harvest } from './harvest';
import { kimai } from './kimai';
import { solidtime } from './solidtime';
import { toggl } from './toggl';

export const FORMATS: Readonly<Record<FormatName, ImportFormat>> = {
  toggl,
  clockify,
  harvest,
  kimai,
  solidtime,
};

/** The file is not the format named: the text (`is not …`) names the columns it lacks. */
export class NotThatFormat extends Error {
  constructor(
    readonly format: ImportFormat,
    readonly missing: string[],
    text?: string,
  ) {
    super(
      text ??
        `is not ${format.title}: it has no ${missing.length === 1 ? 'column' : 'columns'} ${missing.join(', ')}`,
    );
  }
}

export interface ReadOptions {
  tagsAsActivities: boolean;
}

/** What is read of the file beside its rows: the columns left out, and how often filled. */
export interface ReadTally {
  /** Each dropped column with the number of rows that had a value in it. */
  dropped: Map<string, number>;
}

const norm = (s: string) => s.trim().toLowerCase();

/** Column positions by lower-cased name, checked against the format's required columns. */
function columnsOf(format: ImportFormat, header: string[]) {
  const at = new Map<string, number>();
  header.forEach((name, i) => {
    const n = norm(name);
    if (n !== '' && !at.has(n)) at.set(n, i);
  });
  const missing = format.required
    .filter((req) => (Array.isArray(req) ? req : [req]).every((c) => !at.has(norm(c))))
    .map((req) => (Array.isArray(req) ? req.join(' or ') : req));
  if (missing.length > 0) throw new NotThatFormat(format, missing);
  return at;
}

/**
 * The rows of a CSV export in batches (the size csvBatches reads), with their problems.
 * `tally` is filled as the batches are taken.
 */
export async function* readRows(
  format: ImportFormat,
  records: AsyncIterable<CsvRecord[]>,
  options: ReadOptions,
  tally: ReadTally,
): AsyncGenerator<(ImportRow | RowProblem)[], void> {
  let at: Map<string, number> | undefined;
  let droppedAt: [string, number][] = [];
  const readsTags = options.tagsAsActivities && format.tags !== undefined;
  const reads = new Set(
    format.reads.filter((c) => readsTags || c !== format.tags).map((c) => norm(c)),
  );
  let fields: string[] = [];
  // Formats name their columns with literals: each name's position is worked out once.
  const positions = new Map<string, number>();
  const cell: Cells = (column) => {
    let i = positions.get(column);
    if (i === undefined) {
      i = (at as Map<string, number>).get(norm(column)) ?? -1;
      positions.set(column, i);
    }
    return i < 0 ? '' : (fields[i] ?? '');
  };
  // The header comes in a batch of its own: a syntax error before it is taken means the
  // first line is not CSV at all (a binary file, a spreadsheet renamed), which is refused
  // as a file of another kind, not reported as an import that stopped at line 1.
  try {
    for await (const batch of records) {
      const out: (ImportRow | RowProblem)[] = [];
      for (const record of batch) {
        if (!at) {
          at = columnsOf(format, record.fields);
          droppedAt = record.fields
            .map((name, i) => [name.trim(), i] as [string, number])
            .filter(([name]) => name !== '' && !reads.has(norm(name)));
          for (const [name] of droppedAt) tally.dropped.set(name, 0);
          continue;
        }
        fields = record.fields;
        if (fields.length === 1 && (fields[0] as string).trim() === '') continue;
        for (const [name, i] of droppedAt) {
          if ((fields[i] ?? '').trim() !== '') {
            tally.dropped.set(name, (tally.dropped.get(name) as number) + 1);
          }
        }
        const row = format.row(cell);
        if (typeof row === 'string') {
          out.push({ line: record.line, problem: row });
          continue;
        }
        if (!readsTags) row.tags = [];
        // The format's object made whole rather than copied: one object less per row.
        const full = row as ImportRow;
        full.line = record.line;
        full.key = rowKey(format.name, row);
        out.push(full);
      }
      if (out.length > 0) yield out;
    }
  } catch (err) {
    if (!at && err instanceof CsvSyntaxError) {
      throw new NotThatFormat(
        format,
        [],
        `is not ${format.title}: its first line is not CSV (${err.message})`,
      );
    }
    throw err;
  }
  if (!at)
    throw new NotThatFormat(
      format,
      format.required.map((r) => (Array.isArray(r) ? r.join(' or ') : r)),
    );
}

/** The CSV records of a byte stream (csvBatches), for readRows. */
export const csvRecords = (input: AsyncIterable<Buffer | string>) => csvBatches(input);
