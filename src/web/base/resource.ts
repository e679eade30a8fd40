// The one way pages load data: useResource(key, load). An answer is shown only for the
// key it was asked with — a later key's request makes every earlier answer stale, and a
// stale answer is dropped, so a page never shows the previous project's, user's or
// report's data (the race that made the reports page draw the previous report's chart).
// Loading and error states are the same shape everywhere; `reload` asks again for the
// same key and keeps what is shown until the answer comes; `set` replaces what is shown
// (a save's own answer).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../api';

export interface Resource<T> {
  /** The answer for the current key; undefined while it loads (or after an error). */
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Asks again for the same key (after a change); what is shown stays meanwhile. */
  reload: () => void;
  /** Shows this instead (e.g. what a save answered). */
  set: (data: T) => void;
}

interface Shown<T> {
  key: string;
  data?: T;
  error?: string;
}

/**
 * Loads `load()` for `key` (any string naming what is loaded: a slug, a URL); undefined
 * key: nothing to load (e.g. a form for a new object).
 */
export function useResource<T>(key: string | undefined, load: () => Promise<T>): Resource<T> {
  const [shown, setShown] = useState<Shown<T> | undefined>();
  const [version, setVersion] = useState(0);
  // The request whose answer may still be shown: any later one makes it stale.
  const latest = useRef(0);
  useEffect(() => {
    if (key === undefined) return;
    const ask = ++latest.current;
    load().then(
      (data) => {
        if (ask === latest.current) setShown({ key, data });
      },
      (err) => {
        if (ask === latest.current) setShown({ key, error: errorText(err) });
      },
    );
    return () => {
      // Unmounted or asked again: this answer is no longer wanted.
      if (ask === latest.current) latest.current++;
    };
  }, [key, version]);
  const current = shown?.key === key ? shown : undefined;
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const set = useCallback(
    (data: T) => {
      if (key !== undefined) setShown({ key, data });
    },
    [key],
  );
  return {
    data: current?.data,
    error: current?.error,
    loading: key !== undefined && current?.data === undefined && current?.error === undefined,
    reload,
    set,
  };
}
