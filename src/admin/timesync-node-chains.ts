// Shared pieces of the timesync-node migration: the report it fills, and the grouping
// of the old server's one-row-per-revision tables into revision chains.
import type { Row } from './instance-tables';
import type { OldBool, OldRevisionRow } from './timesync-node-store';

/** What the migration wrote, skipped (and why) and noticed, for its summary. */
export interface Report {
  counts: Map<string, number>;
  withoutPassword: string[];
  skipped: string[];
  notes: string[];
}

/** Inserts one row of ours into a table (and counts it). */
export type Write = (table: string, row: Row) => void;

/** The old server's booleans as our 0/1. */
export const bit = (b: OldBool): 0 | 1 => (b === 1 || b === '1' || b === 'true' ? 1 : 0);

/** The rows of one object, oldest first: earlier revisions, then the current one. */
export interface Chain<T> {
  uuid: string;
  history: T[];
  current: T;
}

/**
 * Groups rows (ordered by uuid, revision) into revision chains. The current row is the
 * one marked newest (the highest such), else the last; revisions become 1..n in order.
 */
export function* chains<T extends OldRevisionRow>(
  rows: Iterable<T>,
  kind: string,
  report: Report,
): Generator<Chain<T>> {
  let group: T[] = [];
  const finish = (): Chain<T> | undefined => {
    const first = group[0];
    if (!first?.uuid) return undefined;
    const marked = group.filter((r) => bit(r.newest) === 1);
    const current = marked[marked.length - 1] ?? (group[group.length - 1] as T);
    const history = group.filter((r) => r !== current);
    const numbered = [...history, current].every((r, i) => r.revision === i + 1);
    if (!numbered)
      report.notes.push(`${kind} ${first.uuid}: revisions renumbered 1..${group.length}`);
    return { uuid: first.uuid.toLowerCase(), history, current };
  };
  for (const row of rows) {
    if (!row.uuid) {
      report.skipped.push(`${kind} row ${row.id}: it has no uuid`);
      continue;
    }
    if (group.length > 0 && group[0]?.uuid?.toLowerCase() !== row.uuid.toLowerCase()) {
      const chain = finish();
      if (chain) yield chain;
      group = [];
    }
    group.push(row);
  }
  const chain = finish();
  if (chain) yield chain;
}

export const dates = (r: OldRevisionRow) => ({
  created_at: r.created_at,
  updated_at: r.updated_at,
  deleted_at: r.deleted_at,
  changed_by: null, // the old server did not record who made a revision
});
