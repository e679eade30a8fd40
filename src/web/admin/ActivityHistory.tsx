// An activity's history in a dialog: every revision, newest first, with who made it and
// when (GET /v0/activities/:uuid/history?include_deleted=true).
import { useEffect, useState } from 'preact/hooks';
import { type ActivityRevision, api, errorText } from '../api';
import { Dialog } from '../base/Dialog';
import { formatInstant } from '../base/dates';
import { ScrollBox } from '../base/ScrollBox';

export function ActivityHistory(props: { uuid: string | undefined; onClose: () => void }) {
  const [revisions, setRevisions] = useState<ActivityRevision[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    setRevisions(undefined);
    setError(undefined);
    if (props.uuid === undefined) return;
    api.activityHistory(props.uuid).then(setRevisions, (err) => setError(errorText(err)));
  }, [props.uuid]);
  return (
    <Dialog
      open={props.uuid !== undefined}
      label="Activity history"
      panel="wide"
      onCancel={props.onClose}
    >
      <h2>Activity history</h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!revisions && !error && <p>Loading…</p>}
      {revisions?.[0]?.deleted_at && <p class="muted">Deleted on {revisions[0].deleted_at}.</p>}
      {revisions && (
        <ScrollBox label="Revisions">
          <table class="list">
            <caption>Revisions of this activity, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Changed on</th>
                <th scope="col">By</th>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
              </tr>
            </thead>
            <tbody>
              {revisions.map((r) => (
                <tr key={r.revision}>
                  <th scope="row">{r.revision}</th>
                  <td class="nowrap">{formatInstant(r.changed_at)}</td>
                  <td>{r.changed_by ?? 'not recorded'}</td>
                  <td>{r.name}</td>
                  <td>{r.slug ?? '—'}</td>
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
    </Dialog>
  );
}
