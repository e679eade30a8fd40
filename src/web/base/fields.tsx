// Labelled controls the forms share: a select from a list of options, a text field with
// its problem under it (field-problems.tsx), and the option lists of projects,
// activities and users. Each renders the label and the control as siblings, so a form
// grid lays them out in two columns and a filter bar wraps each pair in a <div>.
import type { JSX } from 'preact';
import type { Activity, Project, User } from '../types';
import type { Catalog } from './catalog';
import { Problem, type Problems, problemProps } from './field-problems';

export interface Option {
  value: string;
  label: string;
}

export function Select(
  props: {
    id: string;
    label: string;
    value: string;
    options: Option[];
    onChange: (value: string) => void;
  } & Omit<JSX.SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'label'>,
) {
  const { id, label, value, options, onChange, ...rest } = props;
  return (
    <>
      <label for={id}>{label}</label>
      <select {...rest} id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** A labelled input whose problem (if any) shows under it, tied by aria-describedby. */
export function TextField(
  props: {
    /** The form's id (useId): the input's is `${form}-${field}`. */
    form: string;
    field: string;
    label: string;
    value: string;
    onInput: (value: string) => void;
    problems?: Problems;
  } & Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label' | 'form'>,
) {
  const { form, field, label, value, onInput, problems = {}, ...rest } = props;
  return (
    <>
      <label for={`${form}-${field}`}>{label}</label>
      <input
        {...rest}
        id={`${form}-${field}`}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
        {...problemProps(form, field, problems)}
      />
      <Problem id={form} field={field} problems={problems} />
    </>
  );
}

/** Projects by name, valued by their first slug (how the API is asked about them). */
export const projectOptions = (projects: Project[] = []): Option[] =>
  projects.map((p) => ({ value: p.slugs[0] as string, label: p.name }));

/** Activities by name, valued by slug; the project's default marked. */
export const activityOptions = (activities: Activity[] = [], defaultSlug?: string | null) =>
  activities.map((a) => ({
    value: a.slug,
    label: a.slug === defaultSlug ? `${a.name} (default)` : a.name,
  }));

/** People as "Display Name (username)", valued by username. */
export const userOptions = (users: User[]): Option[] =>
  users.map((u) => ({
    value: u.username,
    label: u.display_name ? `${u.display_name} (${u.username})` : u.username,
  }));

/** The filters the entries page and the reports share: project, activity and user. */
export function FilterSelects(props: {
  form: string;
  catalog: Catalog | undefined;
  value: { project: string; activity: string; user: string };
  /** The user choices: who "all" is differs between the two pages. */
  users: Option[];
  onChange: (patch: { project?: string; activity?: string; user?: string }) => void;
}) {
  const { form, catalog, value, onChange } = props;
  return (
    <>
      <div>
        <Select
          id={`${form}-project`}
          label="Project"
          value={value.project}
          options={[{ value: '', label: 'All projects' }, ...projectOptions(catalog?.projects)]}
          onChange={(project) => onChange({ project })}
        />
      </div>
      <div>
        <Select
          id={`${form}-activity`}
          label="Activity"
          value={value.activity}
          options={[
            { value: '', label: 'All activities' },
            ...activityOptions(catalog?.activities),
          ]}
          onChange={(activity) => onChange({ activity })}
        />
      </div>
      <div>
        <Select
          id={`${form}-user`}
          label="User"
          value={value.user}
          options={props.users}
          onChange={(user) => onChange({ user })}
        />
      </div>
    </>
  );
}
