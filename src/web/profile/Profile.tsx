// The profile page: display name, email and time zone (POST /v0/users/:me), a password
// change, and the user's personal API tokens next to it (ApiTokens.tsx).
// The API takes a password only as a bcrypt hash made by the client (SPEC §4.4), so the
// new password is hashed here (bcryptjs, cost 10 as the TimeSync clients use) and never
// leaves the browser in clear — except the current one, checked by a login as usual.
import { hash } from 'bcryptjs';
import { useId, useState } from 'preact/hooks';
import { api, errorText, type User } from '../api';
import { reloadCatalog } from '../base/catalog';
import { FormEnd, type Problems, problemsOf } from '../base/field-problems';
import { TextField } from '../base/fields';
import { passwordProblem } from '../base/password';
import { useResource } from '../base/resource';
import { TimeZoneField } from '../base/time-zones';
import { useUnsavedEdits } from '../base/unsaved';
import { ApiTokens } from './ApiTokens';

const BCRYPT_COST = 10;

export function Profile(props: { username: string }) {
  const {
    data: user,
    error,
    set: setUser,
  } = useResource(props.username, () => api.user(props.username));
  return (
    <section class="profile">
      <h1>Profile</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {user ? (
        <>
          <Details user={user} onSaved={setUser} />
          <Password username={user.username} />
          <ApiTokens />
          <div class="card">
            <h2>Session</h2>
            <p class="muted">
              Signed in as {user.username} in every tab of this browser. The session stays open
              while you use the app and ends after a while without use.
            </p>
            <button type="button" onClick={() => api.signOut()}>
              Sign out
            </button>
          </div>
        </>
      ) : (
        !error && <p>Loading…</p>
      )}
    </section>
  );
}

function Details(props: { user: User; onSaved: (u: User) => void }) {
  const id = useId();
  const [name, setName] = useState(props.user.display_name ?? '');
  const [email, setEmail] = useState(props.user.email ?? '');
  const [zone, setZone] = useState(props.user.timezone ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const [status, setStatus] = useState('');
  // Unsaved edits: a prompt before leaving the page (issue 34).
  const { user } = props;
  useUnsavedEdits(
    name !== (user.display_name ?? '') ||
      email !== (user.email ?? '') ||
      zone !== (user.timezone ?? ''),
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    setProblems({});
    setStatus('');
    try {
      const saved = await api.updateUser(props.user.username, {
        display_name: name.trim() || null,
        email: email.trim() || null,
        timezone: zone || null,
      });
      reloadCatalog();
      props.onSaved(saved);
      setStatus('Profile saved');
    } catch (err) {
      setProblems(problemsOf(errorText(err), ['display_name', 'email', 'timezone']));
    }
  };
  return (
    <form class="card entry-form" onSubmit={submit} noValidate aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Your details</h2>
      <div class="fields">
        <span class="label">Username</span>
        <span>{props.user.username}</span>
        <TextField
          form={id}
          field="display_name"
          label="Display name"
          autoComplete="name"
          value={name}
          onInput={setName}
          problems={problems}
        />
        <TextField
          form={id}
          field="email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onInput={setEmail}
          problems={problems}
        />
        <TimeZoneField
          form={id}
          value={zone}
          saved={props.user.timezone}
          onChange={setZone}
          problems={problems}
        />
      </div>
      <FormEnd id={id} problems={problems} status={status} submit="Save profile" />
    </form>
  );
}

function Password(props: { username: string }) {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  // A password half typed is an unsaved edit too: leaving asks first (issue 34).
  useUnsavedEdits(current !== '' || next !== '' || repeat !== '');
  const submit = async (e: Event) => {
    e.preventDefault();
    setStatus('');
    const weak = passwordProblem(next);
    if (weak) {
      setProblems({ next: weak });
      return;
    }
    if (next !== repeat) {
      setProblems({ repeat: 'The two new passwords differ' });
      return;
    }
    setProblems({});
    setBusy(true);
    try {
      try {
        await api.checkPassword(props.username, current);
      } catch (err) {
        setProblems({ current: errorText(err) });
        return;
      }
      await api.updateUser(props.username, { password: await hash(next, BCRYPT_COST) });
      setCurrent('');
      setNext('');
      setRepeat('');
      setStatus('Password changed. Other sessions of yours have been signed out.');
    } catch (err) {
      setProblems({ form: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card entry-form" onSubmit={submit} noValidate aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Change password</h2>
      <p class="muted">
        Changing your password signs out your other sessions. It does not revoke your API tokens
        (below): revoke those yourself.
      </p>
      <div class="fields">
        <TextField
          form={id}
          field="current"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onInput={setCurrent}
          problems={problems}
        />
        <TextField
          form={id}
          field="next"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onInput={setNext}
          problems={problems}
        />
        <TextField
          form={id}
          field="repeat"
          label="Repeat the new password"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onInput={setRepeat}
          problems={problems}
        />
      </div>
      <FormEnd id={id} problems={problems} status={status} submit="Change password" busy={busy} />
    </form>
  );
}
