// The sign-in form: Username, Password, Log in; the LDAP choice only when the server
// lists it (GET /v0/info), and the single sign-on button (a link to GET /v0/oidc/start:
// the browser goes to the provider and comes back to /sso, auth/Sso.tsx) when it lists
// `oidc`. On failure the server's own text; when throttled, how long to wait
// (Retry-After). The instance's display name (GET /v0/info's display_name) under the
// heading; the first empty field has the focus, so one can type at once.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Info } from '../api';

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function SignIn(props: { heading?: string; username?: string }) {
  const id = useId();
  const [info, setInfo] = useState<Info | undefined>();
  const [type, setType] = useState<'password' | 'ldap'>('password');
  const [username, setUsername] = useState(props.username ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (props.username ? passwordRef : usernameRef).current?.focus();
  }, []);

  useEffect(() => {
    api.info().then(
      (i) => {
        setInfo(i);
        if (!i.auth_modules.includes('password') && i.auth_modules.includes('ldap')) {
          setType('ldap');
        }
      },
      () => setInfo(undefined),
    );
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.login(type, username, password);
    } catch (err) {
      if (err instanceof ApiError) {
        setError(err.retryAfter ? `${err.text} (wait ${waitText(err.retryAfter)})` : err.text);
      } else {
        setError(String(err));
      }
      setBusy(false);
    }
  };

  // The types typed into this form; single sign-on is the button instead.
  const modules = (info?.auth_modules ?? ['password']).filter(
    (m): m is 'password' | 'ldap' => m === 'password' || m === 'ldap',
  );
  const sso = info?.auth_modules.includes('oidc') ? info.oidc_label : null;
  return (
    <form class="signin" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{props.heading ?? 'Sign in'}</h1>
      {info && <p class="muted">{info.display_name}</p>}
      {sso && (
        <a class="button primary sso" href="/v0/oidc/start">
          {sso}
        </a>
      )}
      {sso && modules.length > 0 && <p class="or muted">or</p>}
      {modules.length > 0 && (
        <>
          {modules.length > 1 && (
            <fieldset class="choice">
              <legend>Log in with</legend>
              {modules.map((m) => (
                <label key={m}>
                  <input
                    type="radio"
                    name={`${id}-type`}
                    value={m}
                    checked={type === m}
                    onChange={() => setType(m)}
                  />
                  {m === 'ldap' ? 'LDAP directory' : 'Password'}
                </label>
              ))}
            </fieldset>
          )}
          <label for={`${id}-u`}>Username</label>
          <input
            id={`${id}-u`}
            ref={usernameRef}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellcheck={false}
            required
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
          <label for={`${id}-p`}>Password</label>
          <input
            id={`${id}-p`}
            ref={passwordRef}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class={sso ? undefined : 'primary'} disabled={busy}>
            Log in
          </button>
        </>
      )}
    </form>
  );
}
