// The signed-in session: the token (in sessionStorage, gone with the tab) and the
// username it names. When the server ends a session (an expired or revoked token), the
// requests that met the 401 wait here for the same user to sign in again and are then
// sent again (api.ts), so nothing typed is lost; signing out (or in as someone else)
// fails them instead.

export interface Session {
  token: string;
  username: string;
}

const TOKEN_KEY = 'timetrack.token';

/** The username a token names (its `sub`); the server checks the signature, not us. */
export function usernameOf(token: string): string | undefined {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

let session: Session | undefined = (() => {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const username = token ? usernameOf(token) : undefined;
  return token && username ? { token, username } : undefined;
})();

type Listener = (s: Session | undefined, expired: boolean) => void;
const listeners = new Set<Listener>();

export function currentSession(): Session | undefined {
  return session;
}

/** Called with the new session (undefined: signed out; expired: the server ended it). */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setSession(next: Session | undefined, expired = false): void {
  session = next;
  if (next) sessionStorage.setItem(TOKEN_KEY, next.token);
  else sessionStorage.removeItem(TOKEN_KEY);
  for (const l of listeners) l(next, expired);
}

/**
 * Resolves with the next session of `username`; rejects with `why()` when the next
 * change is a sign-out or another user.
 */
export function nextSessionOf(username: string, why: () => Error): Promise<Session> {
  return new Promise((resolve, reject) => {
    const stop = onSessionChange((next, expired) => {
      if (expired) return;
      stop();
      if (next && next.username.toLowerCase() === username.toLowerCase()) resolve(next);
      else reject(why());
    });
  });
}
