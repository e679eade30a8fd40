// A user's personal API tokens as a table, each with a Revoke button (asked first): the
// profile's own list and an admin's view of a user's (users/UserPage.tsx). Never a
// secret: the server keeps none to show.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api';
import type { PersonalToken } from '../types';
import { Confirm } from './Dialog';
import { formatInstant } from './dates';
import { ScrollBox } from './ScrollBox';

export function TokenList(props: {
  /** Another user's tokens (site admins); the caller's when left out. */
  user?: string;
  /** Bumped to read the list again (a token was made). */
  version?: number;
  caption: string;
}) {
  const [tokens, setTokens] = useState<PersonalToken[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [asked, setAsked] = useState<PersonalToken | undefined>();
  const load = () =>
    api.tokens(props.user).then(
      (list) => {
        setTokens(list);
        setError(undefined);
      },
      (err) => setError(errorText(err)),
    );
  useEffect(() => {
    void load();
  }, [props.user, props.version]);

  const revoke = async (token: PersonalToken) => {
    setStatus('');
    try {
      await api.revokeToken(token.id);
      setStatus(`Token ${token.name} revoked`);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="status" role="status">
        {status}
      </p>
      {!tokens && !error && <p>Loading…</p>}
      {tokens && tokens.length === 0 && <p class="muted">No API tokens.</p>}
      {tokens && tokens.length > 0 && (
        <ScrollBox label={props.caption}>
          <table class="list cards">
            <caption>{props.caption}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Access</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.name}</th>
                  <td data-label="Access">{t.scope === 'read' ? 'read only' : 'read and write'}</td>
                  <td class="nowrap" data-label="Created">
                    {t.created_at}
                  </td>
                  <td class="nowrap" data-label="Expires">
                    {t.expires_at ?? 'never'}
                  </td>
                  <td class="nowrap" data-label="Last used">
                    {t.last_used_at ? formatInstant(t.last_used_at).slice(0, 16) : 'never'}
                  </td>
                  <td>
                    <button
                      type="button"
                      class="small danger"
                      aria-label={`Revoke ${t.name}`}
                      onClick={() => setAsked(t)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <Confirm
        open={asked !== undefined}
        label="Revoke this token?"
        text={`Whatever uses ${asked?.name ?? 'it'} will be refused from now on. This cannot be undone.`}
        yes="Revoke"
        no="Cancel"
        onAnswer={(yes) => {
          const token = asked;
          setAsked(undefined);
          if (yes && token) void revoke(token);
        }}
      />
    </>
  );
}
