// A fresh instance has no project and no activity, so nobody can book time. Whoever may
// create projects (site managers, admins; SPEC §3) gets this form where Add row would
// be: a project and its default activity, with themselves as member and manager — enough
// to fill a week without reading any docs. (Managing projects fully is part 2's pages.)
import { useId, useState } from 'preact/hooks';
import { api } from '../api';
import { type Catalog, reloadCatalog } from '../base/catalog';
import { FormEnd, Problem, problemProps, useSave } from '../base/field-problems';
import { slugOf } from '../base/slug';

export function FirstProject(props: { catalog: Catalog }) {
  const id = useId();
  const existing = props.catalog.activities;
  const [name, setName] = useState('');
  const [activity, setActivity] = useState(existing[0]?.slug ?? '');
  const [activityName, setActivityName] = useState('Development');
  const { problems, setProblems, busy, save } = useSave(['name']);
  const me = props.catalog.me.username;

  const submit = (e: Event) => {
    e.preventDefault();
    if (!name.trim()) {
      setProblems({ name: 'Name the project' });
      return;
    }
    save(async () => {
      const slug =
        activity ||
        (
          await api.createActivity({
            name: activityName.trim(),
            slug: slugOf(activityName, 'work'),
          })
        ).slug;
      await api.createProject({
        name: name.trim(),
        slugs: [slugOf(name, 'project')],
        default_activity: slug,
        users: { [me]: { member: true, manager: true } },
      });
      reloadCatalog();
    });
  };

  return (
    <form class="card entry-form" onSubmit={submit} noValidate aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Set up a project to book time on</h2>
      <p class="muted">
        You are not a member of any project yet. Create one (you become its member and manager), or
        ask a manager to add you to theirs.
      </p>
      <div class="fields">
        <label for={`${id}-n`}>Project name</label>
        <input
          id={`${id}-n`}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          {...problemProps(id, 'name', problems)}
        />
        <Problem id={id} field="name" problems={problems} />
        {existing.length > 0 ? (
          <>
            <label for={`${id}-a`}>Default activity</label>
            <select
              id={`${id}-a`}
              value={activity}
              onChange={(e) => setActivity(e.currentTarget.value)}
            >
              {existing.map((a) => (
                <option key={a.uuid} value={a.slug}>
                  {a.name}
                </option>
              ))}
            </select>
          </>
        ) : (
          <>
            <label for={`${id}-a`}>First activity</label>
            <input
              id={`${id}-a`}
              value={activityName}
              onInput={(e) => setActivityName(e.currentTarget.value)}
            />
          </>
        )}
      </div>
      <FormEnd id={id} problems={problems} submit="Create project" busy={busy} />
    </form>
  );
}
