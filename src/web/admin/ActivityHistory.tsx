// An activity's history in a dialog: every revision, newest first, with who made it and
// when (GET /v0/activities/:uuid/history?include_deleted=true).
import { type ActivityRevision, api } from '../api';
import { deletionChange, fieldChange } from '../base/changes';
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
          changes={(r, previous) => {
            if (!previous) return ['created'];
            const changes = [
              ...deletionChange(previous.deleted_at, r.deleted_at),
              ...fieldChange('name', previous.name, r.name),
              ...fieldChange('slug', previous.slug, r.slug),
            ];
            return changes.length > 0 ? changes : ['no change'];
          }}
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
