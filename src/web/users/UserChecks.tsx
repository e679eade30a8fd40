// The check boxes of a person's page (UserPage.tsx): the site flags, each offered to whom
// SPEC §3 allows it, and the organization roles held.
import { Problem, type Problems, problemProps } from '../base/field-problems';
import type { OrgRole, User } from '../types';

export const FLAGS = [
  ['site_spectator', 'Site spectator'],
  ['site_manager', 'Site manager'],
  ['site_admin', 'Admin'],
  ['active', 'Active'],
] as const;
export type Flag = (typeof FLAGS)[number][0];

/** What the page shows and edits of a user (a new one has no dates or meta yet). */
export type Shown = Omit<User, 'meta' | 'created_at' | 'updated_at'>;

export function SiteFlags(props: {
  form: Shown;
  may: (flag: Flag) => boolean;
  onChange: (patch: Partial<Shown>) => void;
}) {
  return (
    <fieldset class="checks">
      <legend>Site flags</legend>
      {FLAGS.map(([flag, label]) => (
        <label key={flag}>
          <input
            type="checkbox"
            disabled={!props.may(flag)}
            checked={props.form[flag]}
            onChange={(e) => props.onChange({ [flag]: e.currentTarget.checked })}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

export function OrgRoles(props: {
  id: string;
  roles: OrgRole[];
  chosen: string[];
  disabled: boolean;
  problems: Problems;
  onChange: (chosen: string[]) => void;
}) {
  const { id, chosen } = props;
  return (
    <>
      <fieldset class="checks" {...problemProps(id, 'org-roles', props.problems)}>
        <legend>Organization roles</legend>
        {props.roles.length === 0 && <span class="muted">none defined</span>}
        {props.roles.map((r) => (
          <label key={r.slug}>
            <input
              type="checkbox"
              disabled={props.disabled}
              checked={chosen.includes(r.slug)}
              onChange={(e) =>
                props.onChange(
                  e.currentTarget.checked
                    ? [...chosen, r.slug]
                    : chosen.filter((s) => s !== r.slug),
                )
              }
            />
            {r.name}
          </label>
        ))}
      </fieldset>
      <Problem id={id} field="org-roles" problems={props.problems} />
    </>
  );
}
