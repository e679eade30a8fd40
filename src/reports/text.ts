// A report's body (JSON or CSV) made from its statements' rows a piece at a time, in the
// snapshot of the connection it is given: on the event loop for a small report, on the
// report worker for a large one (db/text-streams.ts). One function for both, so a report
// has the same bytes wherever it is made: those of JSON.stringify of the whole object.
import type { OpenText } from '../db/text-streams';
import { csvLine } from '../http/csv';
import {
  type Grouping,
  type ReportRow,
  type ReportRowJson,
  reportCsvCells,
  reportCsvHeader,
  type Totals,
  toReportRowJson,
} from './json';

/** What a report's body is made from (plain data: it is posted to the worker). */
export interface ReportRequest {
  start: string;
  end: string;
  groupBy: Grouping[];
  csv: boolean;
  /** The groups, in report order (reports/store.ts reportQuery). */
  rowsSql: string;
  rowsParams: unknown[];
  /**
   * With an activity grouping an entry is in several groups, so the total is counted by a
   * statement of its own (after the rows, in the same snapshot); else it is their sum.
   */
  totalSql?: string;
  totalParams: unknown[];
}

/**
 * Rows made into text at once. JSON rows are written by one JSON.stringify of the lot,
 * its brackets cut off: a call per row made a year of everyone by project and month
 * (2,400 rows) ~1.5 ms slower.
 */
const ROWS_AT_ONCE = 500;

/**
 * The body of JSON.stringify({start, end, group_by, rows, total}), the rows written as
 * they are read and the total after them; or the CSV: a header, then a line per row.
 */
export const openReportText: OpenText<ReportRequest> = (sql, r) => {
  const { groupBy } = r;
  const statement = sql(r.rowsSql);
  let rows: Iterator<ReportRow> | undefined;
  let exhausted = false;
  let finished = false;
  const sum: Totals = { duration: 0, entries: 0 };
  let head = r.csv
    ? csvLine(reportCsvHeader(groupBy))
    : `${JSON.stringify({ start: r.start, end: r.end, group_by: groupBy }).slice(0, -1)},"rows":[`;
  let separator = '';

  /** Up to ROWS_AT_ONCE more rows as text. */
  const moreRows = (from: Iterator<ReportRow>): string => {
    const taken: ReportRowJson[] = [];
    const userNames: (string | null | undefined)[] = [];
    while (taken.length < ROWS_AT_ONCE) {
      const next = from.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      sum.duration += next.value.duration;
      sum.entries += next.value.entries;
      taken.push(toReportRowJson(next.value, groupBy));
      if (r.csv) userNames.push(next.value.user_name);
    }
    if (taken.length === 0) return '';
    if (r.csv) {
      return taken.map((row, i) => csvLine(reportCsvCells(row, groupBy, userNames[i]))).join('');
    }
    const text = separator + JSON.stringify(taken).slice(1, -1);
    separator = ',';
    return text;
  };

  const end = (): string => {
    if (r.csv) return '';
    const total = r.totalSql ? (sql(r.totalSql).get(...r.totalParams) as Totals) : sum;
    return `],"total":${JSON.stringify(total)}}`;
  };

  return {
    read(size) {
      // A body wanted whole (a small report) is read with all(), a little faster than
      // stepping the statement a row at a time.
      rows ??=
        size === Number.POSITIVE_INFINITY
          ? (statement.all(...r.rowsParams) as ReportRow[]).values()
          : (statement.iterate(...r.rowsParams) as IterableIterator<ReportRow>);
      let piece = head;
      head = '';
      while (!exhausted) {
        piece += moreRows(rows);
        if (!exhausted && piece.length >= size) return { text: piece, done: false };
      }
      finished = true;
      return { text: piece + end(), done: true };
    },
    close() {
      if (!finished) rows?.return?.();
      finished = true;
    },
  };
};
