// One time entry's form: date, start time (optional), duration, project, activities,
// notes, issue URI. Sends
// only what changed (POST /v0/times/:uuid); a refusal is shown next to the field it
// names, anything else above the buttons. Used from the timesheet (a cell's entries)
// and the entries page.
import { useId, useState } from 'preact/hooks';
import { api, type Time, type TimeFields } from '../api';
import type { Catalog } from '../base/catalog';
import { formatDuration, parseDuration } from '../base/duration';
import { FormEnd, Problem, problemProps, useSave } from '../base/field-problems';
import { projectOptions, Select } from '../base/fields';
import { memberProjects, projectOf } from '../base/roles';

const FIELDS = [
  'date_worked',
  'start_time',
  'duration',
  'project',
  'activities',
  'notes',
  'issue_uri',
] as const;

export function EntryForm(props: {
  time: Time;
  catalog: Catalog;
  onSaved: (time: Time) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { time, catalog } = props;
  const current = projectOf(catalog.projects, time.project);
  const choices = memberProjects(catalog.projects, time.user);
  if (current && !choices.includes(current)) choices.unshift(current);
  const [date, setDate] = useState(time.date_worked);
  const [start, setStart] = useState(time.start_time ?? '');
  const [duration, setDuration] = useState(formatDuration(time.duration));
  const [project, setProject] = useState(current?.slugs[0] ?? time.project[0] ?? '');
  const [activities, setActivities] = useState<string[]>(time.activities);
  const [notes, setNotes] = useState(time.notes ?? '');
  const [issue, setIssue] = useState(time.issue_uri ?? '');
  const { problems, setProblems, busy, save } = useSave(FIELDS);

  const submit = (e: Event) => {
    e.preventDefault();
    const parsed = parseDuration(duration);
    if (!parsed.ok || parsed.seconds === null) {
      setProblems({
        duration: parsed.ok ? 'Type a duration; delete the entry to remove it' : parsed.message,
      });
      return;
    }
    const changes: Partial<TimeFields> = {};
    if (date !== time.date_worked) changes.date_worked = date;
    const startTime = startTimeOf(start);
    if (startTime !== time.start_time) changes.start_time = startTime;
    if (parsed.seconds !== time.duration) changes.duration = parsed.seconds;
    if (!time.project.includes(project)) changes.project = project;
    if ([...activities].sort().join() !== [...time.activities].sort().join()) {
      changes.activities = activities;
    }
    if ((notes.trim() || null) !== time.notes) changes.notes = notes.trim() || null;
    if ((issue.trim() || null) !== time.issue_uri) changes.issue_uri = issue.trim() || null;
    save(async () =>
      props.onSaved(Object.keys(changes).length ? await api.updateTime(time.uuid, changes) : time),
    );
  };

  return (
    <form class="entry-form" onSubmit={submit} noValidate>
      <div class="fields">
        <label for={`${id}-date`}>Date</label>
        <input
          id={`${id}-date`}
          type="date"
          required
          value={date}
          onInput={(e) => setDate(e.currentTarget.value)}
          {...problemProps(id, 'date_worked', problems)}
        />
        <Problem id={id} field="date_worked" problems={problems} />
        <label for={`${id}-start`}>
          Start time <span class="muted">(optional)</span>
        </label>
        <input
          id={`${id}-start`}
          type="time"
          step={1}
          value={start}
          onInput={(e) => setStart(e.currentTarget.value)}
          {...problemProps(id, 'start_time', problems)}
        />
        <Problem id={id} field="start_time" problems={problems} />
        <label for={`${id}-duration`}>Duration</label>
        <input
          id={`${id}-duration`}
          autoComplete="off"
          value={duration}
          onInput={(e) => setDuration(e.currentTarget.value)}
          {...problemProps(id, 'duration', problems)}
        />
        <Problem id={id} field="duration" problems={problems} />
        <Select
          id={`${id}-project`}
          label="Project"
          value={project}
          options={projectOptions(choices)}
          onChange={setProject}
          {...problemProps(id, 'project', problems)}
        />
        <Problem id={id} field="project" problems={problems} />
        <fieldset class="checks" {...problemProps(id, 'activities', problems)}>
          <legend>Activities</legend>
          {catalog.activities.map((a) => (
            <label key={a.uuid}>
              <input
                type="checkbox"
                checked={activities.includes(a.slug)}
                onChange={(e) =>
                  setActivities((list) =>
                    e.currentTarget.checked ? [...list, a.slug] : list.filter((s) => s !== a.slug),
                  )
                }
              />
              {a.name}
            </label>
          ))}
        </fieldset>
        <Problem id={id} field="activities" problems={problems} />
        <label for={`${id}-notes`}>Notes</label>
        <textarea
          id={`${id}-notes`}
          rows={3}
          value={notes}
          onInput={(e) => setNotes(e.currentTarget.value)}
          {...problemProps(id, 'notes', problems)}
        />
        <Problem id={id} field="notes" problems={problems} />
        <label for={`${id}-issue`}>Issue URI</label>
        <input
          id={`${id}-issue`}
          type="url"
          inputMode="url"
          placeholder="https://…"
          value={issue}
          onInput={(e) => setIssue(e.currentTarget.value)}
          {...problemProps(id, 'issue_uri', problems)}
        />
        <Problem id={id} field="issue_uri" problems={problems} />
      </div>
      <FormEnd
        id={id}
        problems={problems}
        submit="Save entry"
        busy={busy}
        onCancel={props.onCancel}
      />
    </form>
  );
}

/**
 * A time input's value as the API's start_time: null when empty; HH:MM:SS, the seconds
 * added when the browser leaves them out (it does when they are zero).
 */
function startTimeOf(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  return /^\d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
}
