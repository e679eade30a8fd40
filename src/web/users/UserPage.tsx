// One person's page (/people/<username>, or /people/new): profile, time zone (admins and
// the person), site flags and organization roles, a new password, deactivate, delete and restore — each offered to
// whom SPEC §3 allows it (admins all; site managers others' profile, roles and site
// spectator; nobody their own flags). An admin about to drop their own admin flag or
// delete themselves is asked first; the server's answer stands either way. Admins also
// see the user's personal API tokens, and may revoke them.
import { hash } from 'bcryptjs';
import { useEffect, useId, useState } from 'preact/hooks';
import { api, errorText } from '../api';
import { useCatalog } from '../base/catalog';
import { Confirm } from '../base/Dialog';
import { Problem, type Problems, problemsOf } from '../base/field-problems';
import { TextField } from '../base/fields';
import { passwordProblem } from '../base/password';
import { useResource } from '../base/resource';
import { TokenList } from '../base/TokenList';
import { TimeZoneField } from '../base/time-zones';
import { useUnsavedEdits } from '../base/unsaved';
import { navigate, onLinkClick } from '../router';
import type { UserFields } from '../types';
import { FLAGS, type Flag, OrgRoles, type Shown, SiteFlags } from './UserChecks';

const BCRYPT_COST = 10;
const FIELDS = ['username', 'display_name', 'email', 'timezone', 'password', 'org-roles'];

const EMPTY: Shown = {
  username: '',
  display_name: null,
  email: null,
  site_admin: false,
  site_manager: false,
  site_spectator: false,
  active: true,
  'org-roles': [],
  timezone: null,
  deleted_at: null,
};

/** What the form edits of a user, to tell unsaved edits. */
const editedFields = (f: Shown) =>
  JSON.stringify([
    f.username,
    f.display_name ?? '',
    f.email ?? '',
    f.timezone ?? '',
    ...FLAGS.map(([flag]) => f[flag]),
    f['org-roles'],
  ]);

export function UserPage(props: { username: string; who: string }) {
  const id = useId();
  const { catalog } = useCatalog(props.username);
  const creating = props.who === 'new';
  const roles = useResource('org-roles', () => api.orgRoles()).data ?? [];
  const loaded = useResource(creating ? undefined : props.who, () => api.anyUser(props.who));
  const user: Shown | undefined = creating ? EMPTY : loaded.data;
  const setUser = loaded.set;
  const [form, setForm] = useState<Shown>(EMPTY);
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [status, setStatus] = useState('');
  const [ask, setAsk] = useState<{ text: string; yes: string; onYes: () => void } | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (loaded.data) setForm(loaded.data);
  }, [loaded.data]);
  // Unsaved edits: a prompt before leaving the page (issue 34).
  const markSaved = useUnsavedEdits(
    !!user && (password !== '' || editedFields(form) !== editedFields(user)),
  );

  if (!catalog || !user) {
    const failed = loaded.error ?? problems.form;
    return failed ? <Problem id={id} field="form" problems={{ form: failed }} /> : <p>Loading…</p>;
  }
  const me = catalog.me;
  const self = !creating && me.username.toLowerCase() === user.username.toLowerCase();
  const admin = me.site_admin;
  const manager = me.site_manager;
  const may = {
    profile: creating ? admin || manager : admin || manager || self,
    flag: (f: Flag) => admin || (f === 'site_spectator' && manager && !self),
    password: admin || (creating && manager),
    // Issue 31: the user themself and admins.
    timezone: admin || self,
    remove: admin && !creating && !user.deleted_at,
    restore: admin && !!user.deleted_at,
  };
  const set = (patch: Partial<Shown>) => setForm((f) => ({ ...f, ...patch }));

  const save = async () => {
    const weak = password ? passwordProblem(password) : undefined;
    if (weak) {
      setProblems({ password: weak });
      return;
    }
    const changes: Partial<UserFields> = {};
    if (creating) changes.username = form.username.trim();
    if ((form.display_name ?? '') !== (user.display_name ?? ''))
      changes.display_name = form.display_name || null;
    if ((form.email ?? '') !== (user.email ?? '')) changes.email = form.email || null;
    if ((form.timezone ?? '') !== (user.timezone ?? '')) changes.timezone = form.timezone || null;
    for (const [flag] of FLAGS) if (form[flag] !== user[flag]) changes[flag] = form[flag];
    if (form['org-roles'].join() !== user['org-roles'].join())
      changes['org-roles'] = form['org-roles'];
    setBusy(true);
    setProblems({});
    setStatus('');
    try {
      if (password) changes.password = await hash(password, BCRYPT_COST);
      const saved = creating
        ? await api.createUser({ username: form.username.trim(), ...changes })
        : await api.updateUser(user.username, changes);
      setPassword('');
      if (creating) {
        markSaved();
        setStatus(`Created ${saved.username}`);
        navigate(`/people/${encodeURIComponent(saved.username)}`);
      } else {
        setUser(saved);
        setForm(saved);
        setStatus(user.deleted_at ? 'Restored' : 'Saved');
      }
    } catch (err) {
      setProblems(problemsOf(errorText(err), FIELDS));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (self && user.site_admin && !form.site_admin) {
      setAsk({
        text: 'You will no longer be an admin, and cannot make yourself one again.',
        yes: 'Drop my admin flag',
        onYes: save,
      });
    } else void save();
  };
  const remove = () =>
    setAsk({
      text: self
        ? 'You are deleting yourself: you will be signed out and cannot sign in again.'
        : `${user.username} will be deleted and can no longer sign in (an admin can restore them).`,
      yes: self ? 'Delete myself' : 'Delete',
      onYes: async () => {
        try {
          await api.deleteUser(user.username);
          navigate('/people');
        } catch (err) {
          setProblems({ form: errorText(err) });
        }
      },
    });

  return (
    <section class="user-page">
      <p>
        <a href="/people" onClick={onLinkClick}>
          ‹ All people
        </a>
      </p>
      <h1>{creating ? 'New user' : user.username}</h1>
      {user.deleted_at && <p class="notice">Deleted on {user.deleted_at}.</p>}
      {!may.profile && (
        <p class="notice" role="note">
          You are not allowed to change this user: admins and site managers can.
        </p>
      )}
      <form class="card entry-form wide-card" onSubmit={submit} noValidate aria-label="User">
        <div class="fields">
          {creating && (
            <TextField
              form={id}
              field="username"
              label="Username"
              autoComplete="off"
              value={form.username}
              onInput={(username) => set({ username })}
              problems={problems}
            />
          )}
          <TextField
            form={id}
            field="display_name"
            label="Display name"
            disabled={!may.profile}
            value={form.display_name ?? ''}
            onInput={(display_name) => set({ display_name })}
            problems={problems}
          />
          <TextField
            form={id}
            field="email"
            label="Email"
            type="email"
            disabled={!may.profile}
            value={form.email ?? ''}
            onInput={(email) => set({ email })}
            problems={problems}
          />
          {may.timezone && (
            <TimeZoneField
              form={id}
              value={form.timezone ?? ''}
              saved={user.timezone}
              onChange={(timezone) => set({ timezone: timezone || null })}
              problems={problems}
            />
          )}
          {may.password && (
            <TextField
              form={id}
              field="password"
              label={creating ? 'Initial password' : 'New password'}
              type="password"
              autoComplete="new-password"
              value={password}
              onInput={setPassword}
              problems={problems}
            />
          )}
          <SiteFlags form={form} may={may.flag} onChange={set} />
          <OrgRoles
            id={id}
            roles={roles}
            chosen={form['org-roles']}
            disabled={!may.profile}
            problems={problems}
            onChange={(chosen) => set({ 'org-roles': chosen })}
          />
        </div>
        <Problem id={id} field="form" problems={problems} />
        <p class="status" role="status">
          {status}
        </p>
        <div class="actions">
          {may.remove && (
            <button type="button" class="danger" onClick={remove}>
              Delete user
            </button>
          )}
          {(may.profile || may.restore) && (
            <button type="submit" class="primary" disabled={busy}>
              {creating ? 'Create user' : may.restore ? 'Restore user' : 'Save user'}
            </button>
          )}
        </div>
      </form>
      {admin && !creating && (
        <section class="card wide-card" aria-labelledby={`${id}-tokens`}>
          <h2 id={`${id}-tokens`}>API tokens</h2>
          <TokenList user={user.username} caption={`API tokens of ${user.username}`} />
        </section>
      )}
      <Confirm
        open={ask !== undefined}
        label="Are you sure?"
        text={ask?.text ?? ''}
        yes={ask?.yes ?? 'Yes'}
        no="Cancel"
        onAnswer={(yes) => {
          const onYes = ask?.onYes;
          setAsk(undefined);
          if (yes) void onYes?.();
        }}
      />
    </section>
  );
}
