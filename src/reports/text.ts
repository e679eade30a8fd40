// A report's body (JSON or CSV) made from its statements' rows a piece at a time, in the
// snapshot of the connection it is given: on the event loop for a small report, on the
// report worker for a large one (db/text-streams.ts). One function for both, so a report
// has the same bytes wherever it is made: those of JSON.stringify of the whole object.
import type { OpenText, TextSource } from '../db/text-streams';
import { csvLine } from '../http/csv';
import {
  type Grouping,
  type ReportRow,
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
 * The body of JSON.stringify({start, end, group_by, rows, total}), the rows written as
 * they are read and the total after them; or the CSV: a header, then a line per row.
 */
export const openReportText: OpenText<ReportRequest> = (sql, r) => {
  const { groupBy } = r;
  const rows = sql(r.rowsSql).iterate(...r.rowsParams) as IterableIterator<ReportRow>;
  const sum: Totals = { duration: 0, entries: 0 };
  let text = r.csv
    ? csvLine(reportCsvHeader(groupBy))
    : `${JSON.stringify({ start: r.start, end: r.end, group_by: groupBy }).slice(0, -1)},"rows":[`;
  let separator = '';
  let finished = false;
  const rowText = r.csv
    ? (row: ReportRow) => csvLine(reportCsvCells(toReportRowJson(row, groupBy), groupBy))
    : (row: ReportRow) => {
        const json = separator + JSON.stringify(toReportRowJson(row, groupBy));
        separator = ',';
        return json;
      };
  const end = (): string => {
    if (r.csv) return '';
    const total = r.totalSql ? (sql(r.totalSql).get(...r.totalParams) as Totals) : sum;
    return `],"total":${JSON.stringify(total)}}`;
  };
  const source: TextSource = {
    read(size) {
      let piece = text;
      text = '';
      for (;;) {
        const next = rows.next();
        if (next.done) {
          finished = true;
          return { text: piece + end(), done: true };
        }
        const row = next.value;
        sum.duration += row.duration;
        sum.entries += row.entries;
        piece += rowText(row);
        if (piece.length >= size) return { text: piece, done: false };
      }
    },
    close() {
      if (!finished) rows.return?.();
      finished = true;
    },
  };
  return source;
};
