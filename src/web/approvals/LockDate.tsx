// The lock date (issue 32), for admins: no entry dated before it can be created, changed
// or deleted by anyone, admins included, until it is moved.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api';

export function LockDate() {
  const [before, setBefore] = useState<string | null | undefined>();
  const [text, setText] = useState('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    api.lock().then(
      (lock) => {
        setBefore(lock.before);
        setText(lock.before ?? '');
      },
      (err) => setError(errorText(err)),
    );
  }, []);

  const save = async (value: string | null) => {
    setError(undefined);
    try {
      const lock = await api.setLock(value);
      setBefore(lock.before);
      setText(lock.before ?? '');
      setStatus(lock.before ? `Entries before ${lock.before} are locked` : 'No lock date');
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section class="lock-date" aria-labelledby="lock-date-heading">
      <h2 id="lock-date-heading">Lock date</h2>
      <p class="muted">
        Time entries dated before the lock date cannot be added, changed or deleted by anyone,
        administrators included — for example once a month has been paid or invoiced. To correct
        such an entry, move the date back first.
      </p>
      <p>
        {before === undefined
          ? 'Loading…'
          : before === null
            ? 'There is no lock date: every day is open.'
            : `Entries before ${before} are locked.`}
      </p>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          void save(text === '' ? null : text);
        }}
      >
        <div>
          <label for="lock-before">Lock entries before</label>
          <input
            id="lock-before"
            type="date"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary">
          Save lock date
        </button>
        {before && (
          <button type="button" onClick={() => void save(null)}>
            Remove lock date
          </button>
        )}
      </form>
      <p class="status" role="status">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
