// Every revision of an object, newest first, with who made each and when: the one table
// of the history views (an entry's, a project's, an activity's), fed by a history
// endpoint (GET …/:uuid/history). Each view names only its own columns, and what each
// revision changed against the one before it (issue 34), shown as a last column.
import type { ComponentChildren } from 'preact';
import { formatInstant } from './dates';
import { useResource } from './resource';
import { ScrollBox } from './ScrollBox';

/** What every history revision has beside the object's own fields. */
interface Revision {
  revision: number;
  changed_at: string;
  changed_by: string | null;
  deleted_at: string | null;
}

/** One column of the object's own: its heading and its cell (class `nowrap`, `num`, …). */
export interface RevisionColumn<R> {
  label: string;
  cell: (revision: R) => ComponentChildren;
  class?: string;
}

/**
 * The revisions `load` answers, read again when `version` changes (after a save), and
 * shown as a table with a caption; while loading, "Loading…"; on failure, the error.
 */
export function Revisions<R extends Revision>(props: {
  load: () => Promise<R[]>;
  version: unknown;
  caption: string;
  columns: RevisionColumn<R>[];
  /** What `r` changed against `previous` (undefined for the oldest), in words. */
  changes: (r: R, previous: R | undefined) => string[];
}) {
  // Read again when `version` changes: a new object, or a save.
  const { data: revisions, error } = useResource(String(props.version), props.load);
  const current = revisions?.[0];
  return (
    <>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!revisions && !error && <p>Loading…</p>}
      {current?.deleted_at && <p class="muted">Deleted on {current.deleted_at}.</p>}
      {revisions && (
        <ScrollBox label="Revisions">
          <table class="list cards">
            <caption>{props.caption}</caption>
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Changed at</th>
                <th scope="col">By</th>
                <th scope="col">Changes</th>
                {props.columns.map((c) => (
                  <th scope="col" key={c.label}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {revisions.map((r, i) => (
                <tr key={r.revision}>
                  <th scope="row" data-label="Revision">
                    {r.revision}
                  </th>
                  <td class="nowrap" data-label="Changed at">
                    {formatInstant(r.changed_at)}
                  </td>
                  <td data-label="By">{r.changed_by ?? 'not recorded'}</td>
                  <td class="changes" data-label="Changes">
                    <ul>
                      {props.changes(r, revisions[i + 1]).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  </td>
                  {props.columns.map((c) => (
                    <td class={c.class} key={c.label} data-label={c.label}>
                      {c.cell(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </>
  );
}
