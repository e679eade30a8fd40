// What every revisioned object shows of its history (SPEC §5), mapped in one place: the
// three change dates of a row, and the earlier revisions the stores gather with one
// subquery per row as a JSON array (newest first); and what the history endpoints add to
// each revision (issue 29): who made it and when.
import { formatDate, formatTimestamp } from '../dates';
import { parseSqlJsonArray, type SqlOf } from './sql-json';

/** The change times (ms) of a current row or of one of its revisions. */
export interface ChangeTimes {
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
}

/** The change dates as the API shows them: YYYY-MM-DD, or null when it never happened. */
export function changeDates(row: ChangeTimes) {
  return {
    created_at: formatDate(row.created_at),
    updated_at: formatDate(row.updated_at),
    deleted_at: formatDate(row.deleted_at),
  };
}

/**
 * `json` with its `parents`, each revision mapped by `toJson`, when the row was read with
 * them (`parents` is the store's JSON array, built from `fields`); `json` alone when they
 * were not asked for.
 */
export function withParents<Json extends object, Revision, Parent>(
  json: Json,
  parents: string | undefined,
  fields: SqlOf<Revision>,
  toJson: (revision: Revision) => Parent,
): Json | (Json & { parents: Parent[] }) {
  if (parents === undefined) return json;
  return { ...json, parents: parseSqlJsonArray(parents, fields).map(toJson) };
}

/** When a revision was made (ms): the first when it was created, later ones when updated. */
export const changedAt = (row: ChangeTimes): number => row.updated_at ?? row.created_at;

/**
 * A revision as a history endpoint shows it: as it was served, then who made it (a
 * username, null when not recorded) and when (an ISO 8601 instant with milliseconds).
 */
export const withChange = <Json extends object>(
  json: Json,
  changedBy: string | null,
  changedAtMs: number,
) => ({ ...json, changed_by: changedBy, changed_at: formatTimestamp(changedAtMs) });
