// The one typed client of /v0. The token lives in sessionStorage (gone with the tab) and
// travels only in `Authorization: Bearer`, never in a URL. Every failure becomes an
// ApiError carrying the server's {status, error, text} (and Retry-After when sent); a
// 401 Authentication failure on a signed-in request (expired or revoked token) ends the
// session and tells the app (main.tsx shows the sign-in dialog over the page).

export interface Info {
  name: string;
  version: string;
  instance_name: string;
  auth_modules: ('password' | 'ldap')[];
}

export interface Project {
  uuid: string;
  name: string;
  slugs: string[];
  default_activity: string | null;
  users: Record<string, { member?: boolean; manager?: boolean; spectator?: boolean }>;
}

export interface Activity {
  uuid: string;
  name: string;
  slug: string;
}

export interface Time {
  uuid: string;
  duration: number;
  user: string;
  project: string[];
  activities: string[];
  date_worked: string;
  notes: string | null;
  issue_uri: string | null;
}

export interface NewTime {
  duration: number;
  user: string;
  project: string;
  activities: string[];
  date_worked: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly text: string,
    /** Seconds, from Retry-After (throttled logins, a busy server). */
    readonly retryAfter?: number,
  ) {
    super(text);
  }
}

const TOKEN_KEY = 'timetrack.token';

export interface Session {
  token: string;
  username: string;
}

/** The username a token names (its `sub`); the server checks the signature, not us. */
function usernameOf(token: string): string | undefined {
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

const listeners = new Set<(s: Session | undefined, expired: boolean) => void>();

export function currentSession(): Session | undefined {
  return session;
}

/** Called with the new session (undefined: signed out; expired: the server ended it). */
export function onSessionChange(
  listener: (s: Session | undefined, expired: boolean) => void,
): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setSession(next: Session | undefined, expired = false) {
  session = next;
  if (next) sessionStorage.setItem(TOKEN_KEY, next.token);
  else sessionStorage.removeItem(TOKEN_KEY);
  for (const l of listeners) l(next, expired);
}

type Query = Record<string, string | string[] | undefined>;

async function request<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { query?: Query; body?: unknown; anonymous?: boolean } = {},
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      params.append(key, v);
    }
  }
  const qs = params.toString();
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.anonymous ? undefined : session?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/v0${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'Network error', 'The server cannot be reached; try again');
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const body = (json ?? {}) as { error?: unknown; text?: unknown };
    const retry = Number(res.headers.get('Retry-After'));
    const err = new ApiError(
      res.status,
      typeof body.error === 'string' ? body.error : res.statusText,
      typeof body.text === 'string' ? body.text : `The server answered ${res.status}`,
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
    );
    if (token && res.status === 401 && err.error === 'Authentication failure') {
      setSession(undefined, true);
    }
    throw err;
  }
  return json as T;
}

export const api = {
  info: () => request<Info>('GET', '/info', { anonymous: true }),

  async login(type: 'password' | 'ldap', username: string, password: string): Promise<Session> {
    const { token } = await request<{ token: string }>('POST', '/login', {
      anonymous: true,
      body: { auth: { type, username, password } },
    });
    const sub = usernameOf(token) ?? username;
    const next = { token, username: sub };
    setSession(next);
    return next;
  },

  signOut: () => setSession(undefined),

  projectsOf: (username: string) =>
    request<Project[]>('GET', '/projects', { query: { user: username } }),
  activities: () => request<Activity[]>('GET', '/activities'),
  times: (query: { user: string; start: string; end: string }) =>
    request<Time[]>('GET', '/times', { query }),
  createTime: (object: NewTime) => request<Time>('POST', '/times', { body: { object } }),
  updateTime: (uuid: string, object: Partial<NewTime>) =>
    request<Time>('POST', `/times/${encodeURIComponent(uuid)}`, { body: { object } }),
  deleteTime: (uuid: string) => request<undefined>('DELETE', `/times/${encodeURIComponent(uuid)}`),
};
