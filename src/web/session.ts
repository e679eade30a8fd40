// The signed-in session: the token and the username it names. The token lives in this
// tab's sessionStorage (a reload keeps it; never localStorage nor a cookie a script could
// read), and tabs hand it to each other on a BroadcastChannel: a new tab asks, a
// signed-in tab answers, so a tab opened while signed in is signed in. A new token (a
// sign-in, a renewal: auth/keepalive.ts) and a sign-out are told to every tab.
//
// When the server ends a session (an expired or revoked token), the requests that met the
// 401 wait here for the same user to sign in again and are then sent again (api.ts), so
// nothing typed is lost; signing out (or in as someone else) fails them instead.

export interface Session {
  token: string;
  username: string;
  /**
   * When the token stops working, on this tab's clock (ms): the token's own lifetime
   * (exp − iat) counted from when this tab got it, so a computer whose clock is off
   * still renews in time.
   */
  deadline: number;
  /** The token's whole lifetime (ms). */
  lifetime: number;
}

const TOKEN_KEY = 'timetrack.token';
const DEADLINE_KEY = 'timetrack.deadline';

interface Claims {
  sub?: unknown;
  iat?: unknown;
  exp?: unknown;
}

function claimsOf(token: string): Claims | undefined {
  try {
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Claims;
  } catch {
    return undefined;
  }
}

/** The username a token names (its `sub`); the server checks the signature, not us. */
export function usernameOf(token: string): string | undefined {
  const sub = claimsOf(token)?.sub;
  return typeof sub === 'string' ? sub : undefined;
}

/** The session of a token just received; `remaining`: what another tab says is left. */
export function sessionOf(token: string, remaining?: number): Session | undefined {
  const claims = claimsOf(token);
  const username = typeof claims?.sub === 'string' ? claims.sub : undefined;
  if (!username) return undefined;
  const lifetime =
    typeof claims?.exp === 'number' && typeof claims.iat === 'number'
      ? claims.exp - claims.iat
      : 30 * 60_000;
  return { token, username, lifetime, deadline: Date.now() + (remaining ?? lifetime) };
}

let session: Session | undefined = (() => {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const next = token ? sessionOf(token) : undefined;
  const deadline = Number(sessionStorage.getItem(DEADLINE_KEY));
  if (next && Number.isFinite(deadline) && deadline > 0) next.deadline = deadline;
  return next;
})();

type Listener = (s: Session | undefined, expired: boolean) => void;
const listeners = new Set<Listener>();

type Message =
  | { type: 'ask' }
  | { type: 'session'; token: string; remaining: number }
  | { type: 'signed-out' };

const channel: BroadcastChannel | undefined =
  typeof BroadcastChannel === 'function' ? new BroadcastChannel('timetrack.session') : undefined;

export function currentSession(): Session | undefined {
  return session;
}

/** Called with the new session (undefined: signed out; expired: the server ended it). */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function apply(next: Session | undefined, expired: boolean): void {
  session = next;
  if (next) {
    sessionStorage.setItem(TOKEN_KEY, next.token);
    sessionStorage.setItem(DEADLINE_KEY, String(next.deadline));
  } else {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(DEADLINE_KEY);
  }
  for (const l of listeners) l(next, expired);
}

const share = (s: Session) =>
  channel?.postMessage({
    type: 'session',
    token: s.token,
    remaining: s.deadline - Date.now(),
  } satisfies Message);

/**
 * The session changes here and in every other tab: a new token is handed over, a
 * sign-out signs them all out. An ended session (expired) is this tab's news only.
 */
export function setSession(next: Session | undefined, expired = false): void {
  apply(next, expired);
  if (expired) return;
  if (next) share(next);
  else channel?.postMessage({ type: 'signed-out' } satisfies Message);
}

channel?.addEventListener('message', (e: MessageEvent<Message>) => {
  const m = e.data;
  if (m.type === 'ask') {
    if (session && session.deadline > Date.now()) share(session);
  } else if (m.type === 'session') {
    if (m.token === session?.token) return;
    const next = sessionOf(m.token, m.remaining);
    // Another user's sign-in elsewhere does not take over a tab that is signed in.
    if (next && (!session || session.username.toLowerCase() === next.username.toLowerCase())) {
      apply(next, false);
    }
  } else if (m.type === 'signed-out' && session) {
    apply(undefined, false);
  }
});

/**
 * A tab opened without a token asks the others for theirs: resolves once one answered
 * (the session is then set) or after a moment without an answer.
 */
export const handedOver: Promise<void> = new Promise((resolve) => {
  if (session || !channel) {
    resolve();
    return;
  }
  const stop = onSessionChange(() => {
    stop();
    resolve();
  });
  channel.postMessage({ type: 'ask' } satisfies Message);
  setTimeout(() => {
    stop();
    resolve();
  }, 300);
});

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
