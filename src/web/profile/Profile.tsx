// The profile page: display name and email (POST /v0/users/:me), and a password change.
// The API takes a password only as a bcrypt hash made by the client (SPEC §4.4), so the
// new password is hashed here (bcryptjs, cost 10 as the TimeSync clients use) and never
// leaves the browser in clear — except the current one, checked by a login as usual.
import { hash } from 'bcryptjs';
import { useEffect, useId, useState } from 'preact/hooks';
import { api, errorText, type User } from '../api';
import { reloadCatalog } from '../base/catalog';
import { Problem, type Problems, problemProps, problemsOf } from '../base/field-problems';

const MIN_PASSWORD = 8;
const BCRYPT_COST = 10;

export function Profile(props: { username: string }) {
  const [user, setUser] = useState<User | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.user(props.username).then(setUser, (err) => setError(errorText(err)));
  }, [props.username]);
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
          <div class="card">
            <h2>Session</h2>
            <p class="muted">Signed in as {user.username} in this tab.</p>
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
  const [problems, setProblems] = useState<Problems>({});
  const [status, setStatus] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    setProblems({});
    setStatus('');
    try {
      const saved = await api.updateUser(props.user.username, {
        display_name: name.trim() || null,
        email: email.trim() || null,
      });
      reloadCatalog();
      props.onSaved(saved);
      setStatus('Profile saved');
    } catch (err) {
      setProblems(problemsOf(errorText(err), ['display_name', 'email']));
    }
  };
  return (
    <form class="card entry-form" onSubmit={submit} noValidate aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Your details</h2>
      <div class="fields">
        <span class="label">Username</span>
        <span>{props.user.username}</span>
        <label for={`${id}-n`}>Display name</label>
        <input
          id={`${id}-n`}
          autoComplete="name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          {...problemProps(id, 'display_name', problems)}
        />
        <Problem id={id} field="display_name" problems={problems} />
        <label for={`${id}-e`}>Email</label>
        <input
          id={`${id}-e`}
          type="email"
          autoComplete="email"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          {...problemProps(id, 'email', problems)}
        />
        <Problem id={id} field="email" problems={problems} />
      </div>
      <Problem id={id} field="form" problems={problems} />
      <p class="status" role="status">
        {status}
      </p>
      <div class="actions">
        <button type="submit" class="primary">
          Save profile
        </button>
      </div>
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
  const submit = async (e: Event) => {
    e.preventDefault();
    setStatus('');
    if (next.length < MIN_PASSWORD) {
      setProblems({ next: `Use at least ${MIN_PASSWORD} characters` });
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
  const input = (
    field: string,
    label: string,
    value: string,
    set: (v: string) => void,
    auto: string,
  ) => (
    <>
      <label for={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        type="password"
        autoComplete={auto}
        value={value}
        onInput={(e) => set(e.currentTarget.value)}
        {...problemProps(id, field, problems)}
      />
      <Problem id={id} field={field} problems={problems} />
    </>
  );
  return (
    <form class="card entry-form" onSubmit={submit} noValidate aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Change password</h2>
      <div class="fields">
        {input('current', 'Current password', current, setCurrent, 'current-password')}
        {input('next', 'New password', next, setNext, 'new-password')}
        {input('repeat', 'Repeat the new password', repeat, setRepeat, 'new-password')}
      </div>
      <Problem id={id} field="form" problems={problems} />
      <p class="status" role="status">
        {status}
      </p>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Change password
        </button>
      </div>
    </form>
  );
}
