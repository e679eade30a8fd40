// A project's revisions, newest first, with who made each and when
// (GET /v0/projects/:uuid/history). `version` changes after every save: read it again.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type ProjectRevision } from '../api';
import { formatInstant } from '../base/dates';
import { ScrollBox } from '../base/ScrollBox';

export function ProjectHistory(props: { uuid: string; version: number }) {
  const [revisions, setRevisions] = useState<ProjectRevision[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.projectHistory(props.uuid).then(setRevisions, (err) => setError(errorText(err)));
  }, [props.uuid, props.version]);
  return (
    <section class="card wide-card" aria-labelledby="project-history">
      <h2 id="project-history">History</h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!revisions && !error && <p>Loading…</p>}
      {revisions && (
        <ScrollBox label="Revisions">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Changed on</th>
                <th scope="col">By</th>
                <th scope="col">Name</th>
                <th scope="col">Slugs</th>
                <th scope="col">Default activity</th>
                <th scope="col">URI</th>
              </tr>
            </thead>
            <tbody>
              {revisions.map((r) => (
                <tr key={r.revision}>
                  <th scope="row">{r.revision}</th>
                  <td class="nowrap">{formatInstant(r.changed_at)}</td>
                  <td>{r.changed_by ?? 'not recorded'}</td>
                  <td>{r.name}</td>
                  <td>{r.slugs.join(', ')}</td>
                  <td>{r.default_activity ?? '—'}</td>
                  <td class="notes">{r.uri ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}
