// A time entry's history: every revision, newest first, with who made it and when
// (GET /v0/times/:uuid/history?include_deleted=true).
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type TimeRevision } from '../api';
import { activityName, type Catalog, projectOf } from '../base/catalog';
import { formatInstant } from '../base/dates';
import { formatDuration } from '../base/duration';
import { ScrollBox } from '../base/ScrollBox';

export function History(props: { uuid: string; catalog: Catalog; onClose: () => void }) {
  const [revisions, setRevisions] = useState<TimeRevision[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.timeHistory(props.uuid).then(setRevisions, (err) => setError(errorText(err)));
  }, [props.uuid]);
  const time = revisions?.[0];
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
              {revisions?.map((r) => (
                <tr key={r.revision}>
                  <th scope="row">{r.revision}</th>
                  <td class="nowrap">{formatInstant(r.changed_at)}</td>
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
