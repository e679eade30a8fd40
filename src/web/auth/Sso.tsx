// /sso: where a single sign-on ends (the server's GET /v0/oidc/callback sends the browser
// here). Signed in: a one-time code in the fragment, which never reaches a server or a
// log; it is taken out of the address at once and exchanged for a token (POST /v0/login
// {"auth": {"type": "oidc", "code": …}}), then the timesheet. Refused: ?error= (and
// the name the provider gave, ?user=), said in words, with a way to try again.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorText } from '../api';
import { navigate, onLinkClick } from '../router';

const TOO_LONG = 'The sign-in took too long: try again';

/** The server's refusals (src/auth/oidc.ts, Refusal) in words. */
function refusalText(error: string, user: string | null): string {
  const who = user ?? 'you';
  switch (error) {
    case 'expired':
      return TOO_LONG;
    case 'deactivated':
      return 'Your account exists but is deactivated';
    case 'no-account':
      return `No account for ${who} and auto-create is off`;
    case 'cannot-create':
      return `No account for ${who}, and none can be made: the name is taken or is not a valid username`;
    case 'denied':
      return 'The sign-in was cancelled at the provider';
    case 'unavailable':
      return 'The sign-in provider cannot be reached: try again later';
    default:
      return 'The sign-in could not be completed: try again (the server log says why)';
  }
}

export function Sso() {
  const [error, setError] = useState<string | undefined>(() => {
    const query = new URLSearchParams(location.search);
    const refused = query.get('error');
    return refused ? refusalText(refused, query.get('user')) : undefined;
  });

  useEffect(() => {
    const code = new URLSearchParams(location.hash.slice(1)).get('code');
    if (error) return;
    if (!code) {
      setError(TOO_LONG);
      return;
    }
    // Out of the address (and the history) before anything else happens.
    history.replaceState(null, '', '/sso');
    api.oidcLogin(code).then(
      () => navigate('/', { replace: true }),
      (err) => setError(err instanceof ApiError && err.status === 401 ? TOO_LONG : errorText(err)),
    );
  }, []);

  if (!error) {
    return (
      <p class="muted" role="status">
        Signing you in…
      </p>
    );
  }
  return (
    <section class="signin" aria-labelledby="sso-h">
      <h1 id="sso-h">Single sign-on failed</h1>
      <p class="error" role="alert">
        {error}
      </p>
      <p class="actions start">
        <a class="button primary" href="/v0/oidc/start">
          Try again
        </a>
        <a href="/" onClick={onLinkClick}>
          Back to sign in
        </a>
      </p>
    </section>
  );
}
