// A time entry's history: every revision, newest first, with who made it and when
// (GET /v0/times/:uuid/history?include_deleted=true).
import { api, type TimeRevision } from '../api';
import { activityName, type Catalog } from '../base/catalog';
import { deletionChange, fieldChange, listChange } from '../base/changes';
import { formatDuration } from '../base/duration';
import { Revisions } from '../base/Revisions';
import { projectOf } from '../base/roles';

export function History(props: { uuid: string; catalog: Catalog; onClose: () => void }) {
  const { projects, activities } = props.catalog;
  return (
    <div class="history">
      <Revisions<TimeRevision>
        load={() => api.timeHistory(props.uuid)}
        version={props.uuid}
        caption="Revisions of this entry, newest first"
        changes={(r, previous) => {
          if (!previous) return ['created'];
          const projectName = (t: TimeRevision) =>
            projectOf(projects, t.project)?.name ?? t.project[0];
          const names = (t: TimeRevision) => t.activities.map((a) => activityName(activities, a));
          const changes = [
            ...deletionChange(previous.deleted_at, r.deleted_at),
            ...fieldChange('date', previous.date_worked, r.date_worked),
            ...fieldChange(
              'duration',
              formatDuration(previous.duration),
              formatDuration(r.duration),
            ),
            ...fieldChange('project', projectName(previous), projectName(r)),
            ...listChange('activities', names(previous), names(r)),
            ...fieldChange('start', previous.start_time, r.start_time),
            ...fieldChange('issue link', previous.issue_uri, r.issue_uri),
            ...(previous.notes === r.notes ? [] : ['notes changed']),
          ];
          return changes.length > 0 ? changes : ['no change'];
        }}
        columns={[
          { label: 'Date', cell: (r) => r.date_worked, class: 'nowrap' },
          { label: 'Duration', cell: (r) => formatDuration(r.duration), class: 'num' },
          { label: 'Project', cell: (r) => projectOf(projects, r.project)?.name ?? r.project[0] },
          {
            label: 'Activities',
            cell: (r) => r.activities.map((a) => activityName(activities, a)).join(', '),
          },
          { label: 'Notes', cell: (r) => r.notes, class: 'notes' },
        ]}
      />
      <div class="actions">
        <button type="button" class="primary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
