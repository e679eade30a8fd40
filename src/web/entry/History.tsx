// A time entry's history: every revision, newest first, with who made it and when
// (GET /v0/times/:uuid?include_revisions=true&include_deleted=true).
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Time } from '../api';
import { activityName, type Catalog, projectOf } from '../base/catalog';
import { formatDuration } from '../base/duration';
import { ScrollBox } from '../base/ScrollBox';

export function History(props: { uuid: string; catalog: Catalog; onClose: () => void }) {
  const [time, setTime] = useState<Time | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.timeHistory(props.uuid).then(setTime, (err) => setError(errorText(err)));
  }, [props.uuid]);
  const revisions = time ? [time, ...(time.parents ?? [])] : [];
  const { projects, activities } = props.catalog;
  return (
    <div class="history">
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!time && !error && <p>Loading…</p>}
      {time?.deleted_at && <p class="muted">Deleted on {time.deleted_at}.</p>}
      {time && (
        <ScrollBox label="Revisions">
          <table class="list">
            <caption>Revisions of this entry, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Changed on</th>
                <th scope="col">By</th>
                <th scope="col">Date</th>
                <th scope="col">Duration</th>
                <th scope="col">Project</th>
                <th scope="col">Activities</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {revisions.map((r) => (
                <tr key={r.revision}>
                  <th scope="row">{r.revision}</th>
                  <td class="nowrap">{r.updated_at ?? r.created_at}</td>
                  <td>{r.changed_by ?? 'not recorded'}</td>
                  <td class="nowrap">{r.date_worked}</td>
                  <td class="num">{formatDuration(r.duration)}</td>
                  <td>{projectOf(projects, r.project)?.name ?? r.project[0]}</td>
                  <td>{r.activities.map((a) => activityName(activities, a)).join(', ')}</td>
                  <td class="notes">{r.notes}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <div class="actions">
        <button type="button" class="primary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
