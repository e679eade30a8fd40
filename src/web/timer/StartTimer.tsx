// The form that starts the timer: a project the user is a member of, an activity (the
// project's default preselected) and a note.
import { useEffect, useId, useState } from 'preact/hooks';
import { api, errorText, type Timer } from '../api';
import { type Catalog, memberProjects } from '../base/catalog';
import { Problem, type Problems, problemProps, problemsOf } from '../base/field-problems';

const FIELDS = ['project', 'activities', 'notes'] as const;

export function StartTimer(props: {
  catalog: Catalog;
  onStarted: (timer: Timer) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const projects = memberProjects(props.catalog.projects, props.catalog.me.username);
  const [projectUuid, setProjectUuid] = useState(projects[0]?.uuid ?? '');
  const project = projects.find((p) => p.uuid === projectUuid);
  const [activity, setActivity] = useState('');
  const [notes, setNotes] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setActivity(project?.default_activity ?? props.catalog.activities[0]?.slug ?? '');
  }, [project?.uuid]);

  if (projects.length === 0) {
    return (
      <>
        <p>You are not a member of any project yet: a manager can add you.</p>
        <div class="actions">
          <button type="button" class="primary" onClick={props.onCancel}>
            Close
          </button>
        </div>
      </>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!project) return;
    setBusy(true);
    setProblems({});
    try {
      props.onStarted(
        await api.startTimer({
          project: project.slugs[0] as string,
          activities: activity ? [activity] : [],
          notes: notes.trim() || null,
        }),
      );
    } catch (err) {
      setProblems(problemsOf(errorText(err), FIELDS));
      setBusy(false);
    }
  };

  return (
    <form class="entry-form" onSubmit={submit} noValidate>
      <div class="fields">
        <label for={`${id}-p`}>Project</label>
        <select
          id={`${id}-p`}
          value={projectUuid}
          onChange={(e) => setProjectUuid(e.currentTarget.value)}
          {...problemProps(id, 'project', problems)}
        >
          {projects.map((p) => (
            <option key={p.uuid} value={p.uuid}>
              {p.name}
            </option>
          ))}
        </select>
        <Problem id={id} field="project" problems={problems} />
        <label for={`${id}-a`}>Activity</label>
        <select
          id={`${id}-a`}
          value={activity}
          onChange={(e) => setActivity(e.currentTarget.value)}
          {...problemProps(id, 'activities', problems)}
        >
          {props.catalog.activities.map((a) => (
            <option key={a.uuid} value={a.slug}>
              {a.name}
              {a.slug === project?.default_activity ? ' (default)' : ''}
            </option>
          ))}
        </select>
        <Problem id={id} field="activities" problems={problems} />
        <label for={`${id}-n`}>Notes</label>
        <input
          id={`${id}-n`}
          value={notes}
          onInput={(e) => setNotes(e.currentTarget.value)}
          {...problemProps(id, 'notes', problems)}
        />
        <Problem id={id} field="notes" problems={problems} />
      </div>
      <Problem id={id} field="form" problems={problems} />
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          Start
        </button>
      </div>
    </form>
  );
}
