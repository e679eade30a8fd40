// The form that starts the timer: a project the user is a member of, an activity (the
// project's default preselected) and a note.
import { useId, useState } from 'preact/hooks';
import { api, type Timer } from '../api';
import type { Catalog } from '../base/catalog';
import { FormEnd, Problem, problemProps, useSave } from '../base/field-problems';
import { activityOptions, projectOptions, Select } from '../base/fields';
import { useFollowingState } from '../base/following-state';
import { managedProjects, memberProjects } from '../base/roles';

const FIELDS = ['project', 'activities', 'notes'] as const;

export function StartTimer(props: {
  catalog: Catalog;
  onStarted: (timer: Timer) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const projects = memberProjects(props.catalog.projects, props.catalog.me.username);
  const [projectSlug, setProjectSlug] = useState(projects[0]?.slugs[0] ?? '');
  const project = projects.find((p) => p.slugs[0] === projectSlug);
  // The project's default activity from the first render on, and again for another project.
  const [activity, setActivity] = useFollowingState(
    project?.default_activity ?? props.catalog.activities[0]?.slug ?? '',
    project?.uuid,
  );
  const [notes, setNotes] = useState('');
  const { problems, busy, save } = useSave(FIELDS);

  if (projects.length === 0) {
    // A manager who is no member has time to see (Team week), none to book.
    const manages = managedProjects(props.catalog.projects, props.catalog.me.username).length;
    return (
      <>
        <p>
          {manages > 0
            ? 'A timer books time on a project you are a member of, and you are a member of none: you manage projects but do not log time on them. A project’s page adds members, you too.'
            : 'You are not a member of any project yet: a manager can add you.'}
        </p>
        <div class="actions">
          <button type="button" class="primary" onClick={props.onCancel}>
            Close
          </button>
        </div>
      </>
    );
  }

  const submit = (e: Event) => {
    e.preventDefault();
    if (!project) return;
    save(async () => {
      const timer = await api.startTimer({
        project: project.slugs[0] as string,
        activities: activity ? [activity] : [],
        notes: notes.trim() || null,
      });
      props.onStarted(timer);
    });
  };

  return (
    <form class="entry-form" onSubmit={submit} noValidate>
      <div class="fields">
        <Select
          id={`${id}-p`}
          label="Project"
          value={project?.slugs[0] ?? ''}
          options={projectOptions(projects)}
          onChange={setProjectSlug}
          {...problemProps(id, 'project', problems)}
        />
        <Problem id={id} field="project" problems={problems} />
        <Select
          id={`${id}-a`}
          label="Activity"
          value={activity}
          options={activityOptions(props.catalog.activities, project?.default_activity)}
          onChange={setActivity}
          {...problemProps(id, 'activities', problems)}
        />
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
      <FormEnd id={id} problems={problems} submit="Start" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}
