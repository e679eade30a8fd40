// An activity's history in a dialog: every revision, newest first, with who made it and
// when (GET /v0/activities/:uuid/history?include_deleted=true).
import { type ActivityRevision, api } from '../api';
import { Dialog } from '../base/Dialog';
import { Revisions } from '../base/Revisions';

export function ActivityHistory(props: { uuid: string | undefined; onClose: () => void }) {
  const { uuid } = props;
  return (
    <Dialog
      open={uuid !== undefined}
      label="Activity history"
      panel="wide"
      onCancel={props.onClose}
    >
      <h2>Activity history</h2>
      {uuid !== undefined && (
        <Revisions<ActivityRevision>
          load={() => api.activityHistory(uuid)}
          version={uuid}
          caption="Revisions of this activity, newest first"
          columns={[
            { label: 'Name', cell: (r) => r.name },
            { label: 'Slug', cell: (r) => r.slug ?? '—' },
          ]}
        />
      )}
      <div class="actions">
        <button type="button" class="primary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
