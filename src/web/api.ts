// The one typed client of /v0. The token travels only in `Authorization: Bearer`, never
// in a URL (session.ts keeps it). Every failure becomes an ApiError carrying the
// server's {status, error, text} (and Retry-After when sent). Two failures wait instead
// of failing, so nothing typed is lost: a server that cannot be reached (connection.ts:
// the banner's Retry sends again) and a 401 Authentication failure on a signed-in
// request (an expired or revoked token: main.tsx shows the sign-in dialog, and the
// request is sent again with the new token). Every change of a time entry is announced
// (onTimeChange) so each page showing it updates, whichever page made it. Every write
// carries an Idempotency-Key, the same on each of its retries, so that a write the
// server did receive is never made twice.
import { waitForConnection } from './connection';
import { currentSession, nextSessionOf, type Session, sessionOf, setSession } from './session';
import type {
  Activity,
  ActivityRevision,
  ApprovalsQuery,
  ImportReport,
  Info,
  KeptRows,
  KeptRowsUpdate,
  Lock,
  Named,
  NamedFields,
  NewPersonalToken,
  OrgRole,
  PersonalToken,
  PersonalTokenCreate,
  Project,
  ProjectFields,
  ProjectRevision,
  Report,
  ReportQuery,
  Time,
  TimeFields,
  TimeRevision,
  Timer,
  TimesQuery,
  User,
  UserFields,
  WeekPart,
  WeekPartDecision,
} from './types';

export type * from './types';

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

/** The text a failure shows: the server's own, or what went wrong on the way. */
export function errorText(err: unknown): string {
  return err instanceof ApiError ? err.text : String(err);
}

/** A time entry changed: `time` as it is now, undefined when it was deleted. */
export type TimeChange = { uuid: string; time?: Time };
const timeListeners = new Set<(change: TimeChange) => void>();

export function onTimeChange(listener: (change: TimeChange) => void): () => void {
  timeListeners.add(listener);
  return () => timeListeners.delete(listener);
}

function announce(change: TimeChange): void {
  for (const l of timeListeners) l(change);
}

/** Week parts were submitted or decided (issue 32): the navigation's count and the pages. */
const partListeners = new Set<() => void>();

export function onPartsChange(listener: () => void): () => void {
  partListeners.add(listener);
  return () => partListeners.delete(listener);
}

function announceParts(): void {
  for (const l of partListeners) l();
}

type Query = Record<string, string | string[] | undefined>;

interface Reply<T> {
  body: T;
  headers: Headers;
  /** The body as sent (a CSV download keeps it as text). */
  text: string;
}

async function send<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { query?: Query; body?: unknown; anonymous?: boolean; accept?: string } = {},
): Promise<Reply<T>> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      params.append(key, v);
    }
  }
  const qs = params.toString();
  // One key per call, the same on every retry below: a write whose answer was lost on the
  // way (the request did arrive) is answered again by the server, not made twice.
  const key =
    (method === 'POST' || method === 'PUT') && !options.anonymous ? idempotencyKey() : undefined;
  let waits = 0;
  for (;;) {
    const session = options.anonymous ? undefined : currentSession();
    const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
    if (session) headers.Authorization = `Bearer ${session.token}`;
    if (key) headers['Idempotency-Key'] = key;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`/v0${path}${qs ? `?${qs}` : ''}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch {
      await waitForConnection();
      continue;
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.ok) return { body: json as T, headers: res.headers, text };
    const body = (json ?? {}) as { error?: unknown; text?: unknown };
    const retry = Number(res.headers.get('Retry-After'));
    const err = new ApiError(
      res.status,
      typeof body.error === 'string' ? body.error : res.statusText,
      typeof body.text === 'string' ? body.text : `The server answered ${res.status}`,
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
    );
    if (key && res.status === 409 && err.error === 'Idempotency key in use' && waits < 10) {
      // The first attempt is still being answered: its answer comes with a later one. (A
      // server that died while answering it keeps the key in use: then the error shows.)
      waits++;
      await new Promise((resolve) => setTimeout(resolve, (err.retryAfter ?? 1) * 1000));
      continue;
    }
    if (session && res.status === 401 && err.error === 'Authentication failure') {
      const again = nextSessionOf(
        session.username,
        () => new ApiError(401, err.error, `Not sent: ${session.username} is no longer signed in`),
      );
      if (currentSession() === session) setSession(undefined, true);
      await again;
      continue;
    }
    throw err;
  }
}

/** 128 random bits in hex (crypto.randomUUID exists only on https and localhost). */
function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function request<T>(...args: Parameters<typeof send>): Promise<T> {
  return (await send<T>(...args)).body;
}

const seg = encodeURIComponent;

export type NamedKind = 'activities' | 'roles';
const NAMED_PATH: Record<NamedKind, string> = {
  activities: '/activities',
  roles: '/users/org-roles',
};

/**
 * Saves a CSV answer as a file named as the server says (Content-Disposition). Fetched
 * with the token in its header and handed to the browser as a blob: a plain link would
 * need the token in its URL.
 */
async function downloadCsv(path: string, query: Query): Promise<string> {
  const reply = await send<undefined>('GET', path, { query, accept: 'text/csv' });
  const name =
    /filename="([^"]+)"/.exec(reply.headers.get('Content-Disposition') ?? '')?.[1] ??
    'timetrack.csv';
  const url = URL.createObjectURL(new Blob([reply.text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** What an import is asked for besides its file (POST /v0/imports, docs/import.md). */
export interface ImportRequest {
  format: string;
  dryRun: boolean;
  createUsers: boolean;
  tagsAsActivities: boolean;
  defaultActivity?: string;
  timezone?: string;
}

/**
 * Sends a file to POST /v0/imports as the body itself (not JSON, no Idempotency-Key: its
 * rows' source keys make a second import create nothing). XMLHttpRequest, not fetch: it
 * reports the upload's progress, and the server reads the body as it imports it, so the
 * bytes sent are the rows done.
 */
function importFile(
  file: Blob,
  req: ImportRequest,
  onProgress: (sent: number, total: number) => void,
): Promise<ImportReport> {
  const query = new URLSearchParams({ format: req.format, dry_run: String(req.dryRun) });
  if (req.createUsers) query.set('create_users', 'true');
  if (req.tagsAsActivities) query.set('tags_as_activities', 'true');
  if (req.defaultActivity) query.set('default_activity', req.defaultActivity);
  if (req.timezone) query.set('timezone', req.timezone);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v0/imports?${query}`);
    const session = currentSession();
    if (session) xhr.setRequestHeader('Authorization', `Bearer ${session.token}`);
    xhr.setRequestHeader('Content-Type', file.type || 'text/csv');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    xhr.onerror = () => reject(new ApiError(0, 'Network error', 'The server cannot be reached'));
    xhr.onload = () => {
      let body: { error?: unknown; text?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status says it
      }
      if (xhr.status === 200) return resolve(body as unknown as ImportReport);
      reject(
        new ApiError(
          xhr.status,
          typeof body.error === 'string' ? body.error : xhr.statusText,
          typeof body.text === 'string' ? body.text : `The server answered ${xhr.status}`,
        ),
      );
    };
    xhr.send(file);
  });
}

/** POST /v0/login with this auth block: the session its token starts. */
async function signIn(auth: Record<string, string>): Promise<Session> {
  const { token } = await request<{ token: string }>('POST', '/login', {
    anonymous: true,
    body: { auth },
  });
  const next = sessionOf(token);
  if (!next) throw new ApiError(500, 'Bad token', `The server's token names no user`);
  setSession(next);
  return next;
}

export const api = {
  info: () => request<Info>('GET', '/info', { anonymous: true }),

  importFile,

  login: (type: 'password' | 'ldap', username: string, password: string) =>
    // (username is the server's to check; the session takes the token's own)
    signIn({ type, username, password }),

  /** Exchanges a single sign-on's one-time code (auth/Sso.tsx) for a session. */
  oidcLogin: (code: string) => signIn({ type: 'oidc', code }),
  /**
   * POST /v0/login/renew: the session's token for a fresh one (auth/keepalive.ts), sent
   * by hand so that a refusal ends the session here without the wait-and-resend of
   * other requests. Undefined when the server cannot be reached (tried again later).
   */
  async renew(session: Session): Promise<Session | 'refused' | undefined> {
    let res: Response;
    try {
      res = await fetch('/v0/login/renew', {
        method: 'POST',
        headers: { Authorization: `Bearer ${session.token}` },
      });
    } catch {
      return undefined;
    }
    if (res.status === 401) return 'refused';
    if (!res.ok) return undefined;
    const { token } = (await res.json()) as { token: string };
    return sessionOf(token);
  },

  /** Checks a password without touching the session (the profile's password change). */
  checkPassword: (username: string, password: string) =>
    request<{ token: string }>('POST', '/login', {
      anonymous: true,
      body: { auth: { type: 'password', username, password } },
    }),

  /**
   * Ends the session here and on the server (POST /v0/logout), which refuses its token
   * from then on. Signed out here at once, whether or not the server could be told.
   */
  signOut() {
    const session = currentSession();
    setSession(undefined);
    if (!session) return;
    void fetch('/v0/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.token}` },
      keepalive: true, // sent even when the page is closed right after
    }).catch(() => {});
  },

  projects: (query: { user?: string; include_deleted?: 'true' } = {}) =>
    request<Project[]>('GET', '/projects', { query }),
  /** Every revision of a project, newest first, with who made each and when. */
  projectHistory: (uuid: string) =>
    request<ProjectRevision[]>('GET', `/projects/${seg(uuid)}/history`, {
      query: { include_deleted: 'true' },
    }),
  project: (slug: string) => request<Project>('GET', `/projects/${seg(slug)}`),
  createProject: (object: Partial<ProjectFields> & { name: string; slugs: string[] }) =>
    request<Project>('POST', '/projects', { body: { object } }),
  updateProject: (slug: string, object: Partial<ProjectFields>) =>
    request<Project>('POST', `/projects/${seg(slug)}`, { body: { object } }),
  deleteProject: (slug: string) => request<undefined>('DELETE', `/projects/${seg(slug)}`),
  /** A deleted project live again, with the slugs sent or (none sent) those it had. */
  restoreProject: (uuid: string, slugs?: string[]) =>
    request<Project>('POST', `/projects/${seg(uuid)}/restore`, { body: { object: { slugs } } }),
  activities: () => request<Activity[]>('GET', '/activities'),
  /** Every revision of an activity, deleted or not, newest first, with who made each and when. */
  activityHistory: (uuid: string) =>
    request<ActivityRevision[]>('GET', `/activities/${seg(uuid)}/history`, {
      query: { include_deleted: 'true' },
    }),
  createActivity: (object: { name: string; slug: string }) =>
    request<Activity>('POST', '/activities', { body: { object } }),
  users: (query: { include_deleted?: 'true' } = {}) => request<User[]>('GET', '/users', { query }),
  user: (username: string) => request<User>('GET', `/users/${seg(username)}`),
  /** A user, deleted or not (the admin's user page). */
  anyUser: (username: string) =>
    request<User>('GET', `/users/${seg(username)}`, { query: { include_deleted: 'true' } }),
  createUser: (object: Partial<UserFields> & { username: string }) =>
    request<User>('POST', '/users', { body: { object } }),
  /** Changes what is sent; an admin's update of a deleted user restores it (SPEC §5). */
  updateUser: (username: string, object: Partial<UserFields>) =>
    request<User>('POST', `/users/${seg(username)}`, { body: { object } }),
  deleteUser: (username: string) => request<undefined>('DELETE', `/users/${seg(username)}`),

  orgRoles: () => request<OrgRole[]>('GET', NAMED_PATH.roles),

  /** Activities (`/activities`) and organization roles (`/users/org-roles`) alike. */
  named: (kind: NamedKind) => ({
    /** Deleted ones too: activities only (org roles are deleted for good). */
    list: (query: { include_deleted?: 'true' } = {}) =>
      request<Named[]>('GET', NAMED_PATH[kind], { query }),
    create: (object: NamedFields) => request<Named>('POST', NAMED_PATH[kind], { body: { object } }),
    update: (slug: string, object: Partial<NamedFields>) =>
      request<Named>('POST', `${NAMED_PATH[kind]}/${seg(slug)}`, { body: { object } }),
    remove: (slug: string) => request<undefined>('DELETE', `${NAMED_PATH[kind]}/${seg(slug)}`),
    /** A deleted activity live again, with the slug sent or (none sent) the one it had. */
    restore: (uuid: string, slug?: string) =>
      request<Named>('POST', `${NAMED_PATH[kind]}/${seg(uuid)}/restore`, {
        body: { object: { slug } },
      }),
  }),

  times: (query: TimesQuery) => request<Time[]>('GET', '/times', { query: { ...query } }),
  /** One page of times and the number of all matches (X-Total-Count). */
  async timesPage(query: TimesQuery): Promise<{ times: Time[]; total: number }> {
    const reply = await send<Time[]>('GET', '/times', { query: { ...query } });
    const total = Number(reply.headers.get('X-Total-Count'));
    return { times: reply.body, total: Number.isFinite(total) ? total : reply.body.length };
  },
  /** Every revision of an entry, deleted or not, newest first, with who made each and when. */
  timeHistory: (uuid: string) =>
    request<TimeRevision[]>('GET', `/times/${seg(uuid)}/history`, {
      query: { include_deleted: 'true' },
    }),
  async createTime(
    object: Omit<TimeFields, 'notes' | 'issue_uri' | 'start_time'> & Partial<TimeFields>,
  ) {
    const time = await request<Time>('POST', '/times', { body: { object } });
    announce({ uuid: time.uuid, time });
    return time;
  },
  /** Changes the fields sent; on a deleted entry this restores it (SPEC §5). */
  async updateTime(uuid: string, object: Partial<TimeFields>) {
    const time = await request<Time>('POST', `/times/${seg(uuid)}`, { body: { object } });
    announce({ uuid: time.uuid, time });
    return time;
  },
  async deleteTime(uuid: string) {
    await request<undefined>('DELETE', `/times/${seg(uuid)}`);
    announce({ uuid });
  },

  report: (query: ReportQuery) => request<Report>('GET', '/reports', { query: { ...query } }),
  downloadReport: (query: ReportQuery) => downloadCsv('/reports', { ...query }),
  downloadTimes: (query: TimesQuery) => downloadCsv('/times', { ...query }),

  /** The caller's running timer, or null. */
  async timer(): Promise<Timer | null> {
    try {
      return await request<Timer>('GET', '/timer');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
  startTimer: (object: {
    project: string;
    activities: string[];
    notes: string | null;
    date_worked?: string;
  }) => request<Timer>('POST', '/timer', { body: { object } }),
  async stopTimer(): Promise<Time> {
    // add_to_entry: the time joins the one entry of its row and day, so the timesheet's
    // cell stays one typeable entry (docs/api-timer.md#stopping).
    const time = await request<Time>('POST', '/timer/stop', {
      body: { object: { add_to_entry: true } },
    });
    announce({ uuid: time.uuid, time });
    return time;
  },
  discardTimer: () => request<undefined>('DELETE', '/timer'),

  /** Personal API tokens: the caller's, or (site admins) another user's. */
  tokens: (user?: string) => request<PersonalToken[]>('GET', '/tokens', { query: { user } }),
  /** A new token of the caller's; its secret is in this answer only. */
  createToken: (object: PersonalTokenCreate) =>
    request<NewPersonalToken>('POST', '/tokens', { body: { object } }),
  revokeToken: (id: number) => request<undefined>('DELETE', `/tokens/${id}`),
  /** Week parts (issue 32): those of the entries the caller may see. */
  approvals: (query: ApprovalsQuery) =>
    request<WeekPart[]>('GET', '/approvals', { query: { ...query } }),
  async submitWeek(username: string, week: string) {
    const parts = await request<WeekPart[]>('POST', `/weeks/${seg(username)}/${seg(week)}/submit`, {
      body: { object: {} },
    });
    announceParts();
    return parts;
  },
  async decide(
    part: Pick<WeekPart, 'user' | 'week' | 'project'>,
    action: 'approve' | 'reject' | 'reopen',
    comment?: string,
  ) {
    const path = `/approvals/${seg(part.user)}/${seg(part.week)}/${seg(part.project[0] ?? '')}/${action}`;
    const decided = await request<WeekPart>('POST', path, {
      body: { object: comment ? { comment } : {} },
    });
    announceParts();
    return decided;
  },
  partHistory: (part: Pick<WeekPart, 'user' | 'week' | 'project'>) =>
    request<WeekPartDecision[]>(
      'GET',
      `/approvals/${seg(part.user)}/${seg(part.week)}/${seg(part.project[0] ?? '')}/history`,
    ),
  lock: () => request<Lock>('GET', '/lock'),
  async setLock(before: string | null) {
    const lock = await request<Lock>('PUT', '/lock', { body: { object: { before } } });
    announceParts();
    return lock;
  },
  /** The timesheet rows a person added to a week and has not filled yet (issue 34). */
  keptRows: (username: string, week: string) =>
    request<KeptRows>('GET', `/weeks/${seg(username)}/${seg(week)}/rows`),
  keepRows: (username: string, week: string, rows: KeptRowsUpdate['rows']) =>
    request<KeptRows>('PUT', `/weeks/${seg(username)}/${seg(week)}/rows`, {
      body: { object: { rows } },
    }),
};
