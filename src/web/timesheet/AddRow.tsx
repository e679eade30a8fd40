// "Add row": a project where the user is a member, and one of the activities (the
// project's default preselected).
import { useId, useState } from 'preact/hooks';
import type { Activity, Project } from '../api';
import { useFollowingState } from '../base/following-state';

export function AddRow(props: {
  loading: boolean;
  projects: Project[];
  activities: Activity[];
  onAdd: (project: Project, activity: string | undefined) => void;
}) {
  const id = useId();
  const [projectUuid, setProjectUuid] = useState('');
  const project = props.projects.find((p) => p.uuid === projectUuid) ?? props.projects[0];
  // The project's default activity, from the first render on (a row added at once gets
  // it), and again whenever another project is chosen.
  const [activity, setActivity] = useFollowingState(
    project?.default_activity ?? props.activities[0]?.slug ?? '',
    `${project?.uuid}|${props.activities.length}`,
  );

  if (props.loading) return null;
  if (props.projects.length === 0) {
    return <p class="muted">You are not a member of any project yet: a manager can add you.</p>;
  }
  return (
    <form
      class="add-row"
      aria-label="Add a row"
      onSubmit={(e) => {
        e.preventDefault();
        if (project) props.onAdd(project, activity || undefined);
      }}
    >
      <label for={`${id}-p`}>Project</label>
      <select
        id={`${id}-p`}
        value={project?.uuid}
        onChange={(e) => setProjectUuid(e.currentTarget.value)}
      >
        {props.projects.map((p) => (
          <option key={p.uuid} value={p.uuid}>
            {p.name}
          </option>
        ))}
      </select>
      <label for={`${id}-a`}>Activity</label>
      <select id={`${id}-a`} value={activity} onChange={(e) => setActivity(e.currentTarget.value)}>
        {props.activities.map((a) => (
          <option key={a.uuid} value={a.slug}>
            {a.name}
            {a.slug === project?.default_activity ? ' (default)' : ''}
          </option>
        ))}
      </select>
      <button type="submit">Add row</button>
    </form>
  );
}
