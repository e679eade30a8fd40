// The URIs an instance keeps (a project's `uri`, a time's or timer's `issue_uri`, and
// their revisions) checked by the API's own rule: null, or an http(s) URI of at most
// 2048 characters (validate.ts isHttpUri, SPEC §4.1, §4.3). The API never stores
// anything else, but `admin import` and `migrate-from-timesync-node` read files written
// elsewhere: a `javascript:` URI there would become a link in the web app. Both leave
// such a value out (null) and name it in their report; `admin check` lists it.
import { isHttpUri } from '../validate';

/** Each table and column that holds a URI, and what a problem calls its row. */
export const URI_COLUMNS = [
  { table: 'projects', column: 'uri' },
  { table: 'project_revisions', column: 'uri' },
  { table: 'times', column: 'issue_uri' },
  { table: 'time_revisions', column: 'issue_uri' },
  { table: 'timers', column: 'issue_uri' },
] as const;

/**
 * Whether the API would refuse this value as a URI: null is fine, and so is '', which the
 * API takes as null (SPEC §4) and import and migration store as null.
 */
export const isRefusedUri = (value: unknown): boolean =>
  value !== null && value !== '' && (typeof value !== 'string' || !isHttpUri(value));

/** The refused value as a report shows it: JSON, cut to 100 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/**
 * A URI as the API would keep it: null for '' and, named by `refused`, for a value it
 * refuses (a `javascript:` link, a relative path).
 */
export function keptUri(value: unknown, refused: (problem: string) => void): unknown {
  if (value === '') return null;
  if (!isRefusedUri(value)) return value;
  refused(refusedUriText(value));
  return null;
}

/** Why a value is refused as a URI, for a line of a report. */
export function refusedUriText(value: unknown): string {
  return `${shown(value)} is not an http or https URI of at most 2048 characters`;
}

/**
 * A row of an instance table with its URIs as the API would keep them (keptUri), in
 * place; answers the problems, `<column> <why>` (none: nothing was refused).
 */
export function leaveOutRefusedUris(table: string, row: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const { table: t, column } of URI_COLUMNS) {
    if (t !== table || !(column in row)) continue;
    row[column] = keptUri(row[column], (why) => problems.push(`${column} ${why}`));
  }
  return problems;
}
