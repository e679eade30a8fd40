// A project's fields: name, URI, slugs (add and remove; the server's "already exists"
// shown at the field), default activity, and its users map as three lists. Creates
// (POST /v0/projects) or saves (POST /v0/projects/:slug) the whole of it.
import { useEffect, useId, useState } from 'preact/hooks';
import { api, errorText } from '../api';
import type { Catalog } from '../base/catalog';
import { FormEnd, Problem, type Problems, problemProps, problemsOf } from '../base/field-problems';
import { TextField } from '../base/fields';
import { slugOf } from '../base/slug';
import { useUnsavedEdits } from '../base/unsaved';
import type { Project, ProjectFields, ProjectRoles, User } from '../types';
import { RoleList } from './RoleList';

const FIELDS = ['name', 'uri', 'slugs', 'default_activity', 'users'] as const;
const ROLES = [
  ['member', 'Members'],
  ['spectator', 'Spectators'],
  ['manager', 'Managers'],
] as const;

/** Three lists ↔ the users map (a user with no role left is dropped, as SPEC §4.1 does). */
function listsOf(users: Record<string, ProjectRoles>) {
  const of = (role: keyof ProjectRoles) =>
    Object.entries(users)
      .filter(([, r]) => r[role])
      .map(([name]) => name);
  return { member: of('member'), spectator: of('spectator'), manager: of('manager') };
}
function usersOf(lists: Record<keyof ProjectRoles, string[]>) {
  const users: Record<string, ProjectRoles> = {};
  for (const [role, names] of Object.entries(lists) as [keyof ProjectRoles, string[]][]) {
    for (const name of names) users[name] = { ...users[name], [role]: true };
  }
  return users;
}

export function ProjectForm(props: {
  project?: Project;
  catalog: Catalog;
  onSaved: (project: Project) => void;
}) {
  const id = useId();
  const p = props.project;
  const [name, setName] = useState(p?.name ?? '');
  const [uri, setUri] = useState(p?.uri ?? '');
  const [slugs, setSlugs] = useState<string[]>(p?.slugs ?? []);
  const [newSlug, setNewSlug] = useState('');
  // A new project's slug follows its name until the slugs are touched, as activities' do.
  const [slugTouched, setSlugTouched] = useState(!!p);
  const [activity, setActivity] = useState(p?.default_activity ?? '');
  const [lists, setLists] = useState(listsOf(p?.users ?? {}));
  const [users, setUsers] = useState<User[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  // What the form holds, to tell unsaved edits (a prompt before leaving, issue 34).
  const snapshot = (withSlugs: string[], adding: string) =>
    JSON.stringify([name, uri, withSlugs, adding, activity, lists]);
  const shown = snapshot(slugs, newSlug);
  const [savedAs, setSavedAs] = useState(shown);
  const markSaved = useUnsavedEdits(shown !== savedAs);
  useEffect(() => {
    api.users().then(setUsers, () => setUsers([]));
  }, []);

  const addSlug = () => {
    setSlugTouched(true);
    const slug = newSlug.trim().toLowerCase();
    if (slug && !slugs.includes(slug)) setSlugs([...slugs, slug]);
    setNewSlug('');
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const all = newSlug.trim() ? [...slugs, newSlug.trim().toLowerCase()] : slugs;
    if (all.length === 0) {
      setProblems({ slugs: 'Give the project at least one slug' });
      return;
    }
    const fields: ProjectFields = {
      name: name.trim(),
      uri: uri.trim() || null,
      slugs: all,
      default_activity: activity || null,
      users: usersOf(lists),
    };
    setBusy(true);
    setProblems({});
    setStatus('');
    try {
      const saved = p
        ? await api.updateProject(p.slugs[0] as string, fields)
        : await api.createProject(fields);
      setSlugs(saved.slugs);
      setNewSlug('');
      setSavedAs(snapshot(saved.slugs, ''));
      markSaved();
      setStatus('Project saved');
      props.onSaved(saved);
    } catch (err) {
      setProblems(problemsOf(errorText(err), FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="card entry-form wide-card"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-h`}
    >
      <h2 id={`${id}-h`}>{p ? 'Project' : 'New project'}</h2>
      <div class="fields">
        <TextField
          form={id}
          field="name"
          label="Name"
          value={name}
          onInput={(next) => {
            setName(next);
            if (!slugTouched) setNewSlug(slugOf(next, ''));
          }}
          problems={problems}
        />
        <TextField
          form={id}
          field="uri"
          label="URI"
          type="url"
          placeholder="https://…"
          value={uri}
          onInput={setUri}
          problems={problems}
        />
        <span class="label" aria-hidden="true">
          Slugs
        </span>
        <fieldset class="slugs">
          <legend class="visually-hidden">Slugs</legend>
          {slugs.map((s) => (
            <span key={s} class="chip">
              {s}{' '}
              <button
                type="button"
                class="small"
                aria-label={`Remove slug ${s}`}
                onClick={() => {
                  setSlugTouched(true);
                  setSlugs(slugs.filter((x) => x !== s));
                }}
              >
                ×
              </button>
            </span>
          ))}
          <label for={`${id}-s`} class="visually-hidden">
            New slug
          </label>
          <input
            id={`${id}-s`}
            class="slug-input"
            placeholder="new-slug"
            value={newSlug}
            onInput={(e) => {
              setSlugTouched(true);
              setNewSlug(e.currentTarget.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addSlug();
              }
            }}
            {...problemProps(id, 'slugs', problems)}
          />
          <button type="button" onClick={addSlug}>
            Add slug
          </button>
        </fieldset>
        <Problem id={id} field="slugs" problems={problems} />
        <label for={`${id}-a`}>Default activity</label>
        <select
          id={`${id}-a`}
          value={activity}
          onChange={(e) => setActivity(e.currentTarget.value)}
          {...problemProps(id, 'default_activity', problems)}
        >
          <option value="">None</option>
          {props.catalog.activities.map((a) => (
            <option key={a.uuid} value={a.slug}>
              {a.name}
            </option>
          ))}
        </select>
        <Problem id={id} field="default_activity" problems={problems} />
      </div>
      <div class="roles">
        {ROLES.map(([role, label]) => (
          <RoleList
            key={role}
            label={label}
            one={role}
            people={lists[role]}
            users={users}
            onChange={(people) => setLists({ ...lists, [role]: people })}
          />
        ))}
      </div>
      <Problem id={id} field="users" problems={problems} />
      <FormEnd
        id={id}
        problems={problems}
        status={status}
        submit={p ? 'Save project' : 'Create project'}
        busy={busy}
      />
    </form>
  );
}
