// CSV answers (RFC 4180, UTF-8, CRLF, a header row): which format a GET asked for, and
// how a cell is written. What the columns are is each resource's business (its json.ts).
import type { Ctx } from './context';
import { firstParam } from './query';

export const CSV_TYPE = 'text/csv; charset=utf-8';

/**
 * Whether a GET asked for CSV: `format=csv` (first occurrence, so a browser link can
 * download it) or, without `format`, an Accept header that lists `text/csv` at least as
 * high as `application/json`. `format=json` asks for the default; any other value is
 * kind 11.
 */
export function wantsCsv(ctx: Ctx): boolean {
  const format = firstParam(ctx.query, 'format', (v) => v === 'csv' || v === 'json');
  if (format !== undefined) return format === 'csv';
  const accept = ctx.req.headers.accept;
  if (!accept) return false;
  const csv = quality(accept, 'text/csv');
  return csv > 0 && csv >= quality(accept, 'application/json');
}

/** The q of a media type named exactly in an Accept header (0 when absent). */
function quality(accept: string, type: string): number {
  let best = 0;
  for (const range of accept.split(',')) {
    const [name, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (name !== type) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isFinite(value)) best = Math.max(best, value);
  }
  return best;
}

/** A cell a spreadsheet would run as a formula (or that starts with a tab or CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Where a spreadsheet that splits on `;` (the list separator of much of Europe) or reads
 * the quoting differently starts a cell inside ours: after a `;` or a line break. It
 * sees the quotes of RFC 4180 only at the start of its own cell, so a `"` there opens
 * one, and what follows it starts the cell's text.
 */
const INNER_START = /([;\r\n])(?=[=+\-@\t\r"])/g;

/**
 * One RFC 4180 cell: null is empty; a text a spreadsheet would take for a formula gets a
 * leading `'`, and so does any part of it that a reader splitting on `;` or on a line
 * break would start a cell with (`x;=1+1` → `x;'=1+1`); a cell holding `"`, `,`, `;`, CR
 * or LF is quoted with `"` doubled.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  text = text.replace(INNER_START, "$1'");
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF. */
export const csvLine = (cells: readonly (string | number | null)[]): string =>
  `${cells.map(csvCell).join(',')}\r\n`;

/** Seconds as decimal hours with two places, rounded as Number#toFixed(2) does. */
export const hoursText = (seconds: number): string => (seconds / 3600).toFixed(2);

/** The header that makes a browser save the answer as a file of that name. */
export const attachment = (filename: string): Record<string, string> => ({
  'Content-Disposition': `attachment; filename="${filename}"`,
});

/** `<start>-<end>` of a file name from the query (already checked), `all` for a bound not given. */
export const dateRangeName = (query: URLSearchParams): string =>
  `${query.get('start') ?? 'all'}-${query.get('end') ?? 'all'}`;
