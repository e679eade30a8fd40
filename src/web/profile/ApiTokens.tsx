// The profile's API tokens (issue 33): make a personal token (name, access, expiry), see
// its secret once with a Copy button, and the list with last use and Revoke.
import { useId, useState } from 'preact/hooks';
import { api, errorText } from '../api';
import { toIsoDate } from '../base/dates';
import { FormEnd, type Problems, problemsOf } from '../base/field-problems';
import { Select, TextField } from '../base/fields';
import { TokenList } from '../base/TokenList';
import type { NewPersonalToken } from '../types';

const FIELDS = ['name', 'scope', 'expires_at'];

/** Tomorrow (UTC): the first date a token may expire on. */
const tomorrow = () => toIsoDate(new Date(Date.now() + 86_400_000));

export function ApiTokens() {
  const id = useId();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'read' | 'write'>('read');
  const [expires, setExpires] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<NewPersonalToken | undefined>();
  const [version, setVersion] = useState(0);

  const submit = async (e: Event) => {
    e.preventDefault();
    setProblems({});
    setMade(undefined);
    setBusy(true);
    try {
      const token = await api.createToken({
        name: name.trim(),
        scope,
        expires_at: expires || null,
      });
      setMade(token);
      setName('');
      setExpires('');
      setVersion((v) => v + 1);
    } catch (err) {
      setProblems(problemsOf(errorText(err), FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>API tokens</h2>
      <p class="muted">
        For scripts and integrations: a token is sent as <code>Authorization: Bearer …</code> and
        acts as you. A read-only token cannot change anything; no token can change your password or
        make other tokens. Changing your password does not revoke them: revoke a token here when it
        is no longer needed.
      </p>
      {made && <NewToken token={made} />}
      <form class="entry-form" onSubmit={submit} noValidate aria-label="New API token">
        <div class="fields">
          <TextField
            form={id}
            field="name"
            label="Token name"
            autoComplete="off"
            value={name}
            onInput={setName}
            problems={problems}
          />
          <Select
            id={`${id}-scope`}
            label="Access"
            value={scope}
            options={[
              { value: 'read', label: 'Read only' },
              { value: 'write', label: 'Read and write' },
            ]}
            onChange={(v) => setScope(v as 'read' | 'write')}
          />
          <TextField
            form={id}
            field="expires_at"
            label="Expires on (optional)"
            type="date"
            min={tomorrow()}
            value={expires}
            onInput={setExpires}
            problems={problems}
          />
        </div>
        <FormEnd id={id} problems={problems} submit="Create token" busy={busy} />
      </form>
      <TokenList caption="Your API tokens" version={version} />
    </section>
  );
}

/** The secret of a token just made: shown this once, with a Copy button. */
function NewToken(props: { token: NewPersonalToken }) {
  const id = useId();
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.token.token);
      setCopied('Copied to the clipboard');
    } catch {
      // No clipboard (plain http off localhost): select it for Ctrl+C instead.
      (document.getElementById(`${id}-secret`) as HTMLInputElement | null)?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy');
    }
  };
  return (
    <div class="notice new-token">
      <p>
        <strong>Copy the token {props.token.name} now.</strong> It is shown only this once.
      </p>
      <label for={`${id}-secret`} class="visually-hidden">
        The new token
      </label>
      <div class="secret">
        <input id={`${id}-secret`} readOnly value={props.token.token} spellcheck={false} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="status" role="status">
        {copied}
      </p>
    </div>
  );
}
