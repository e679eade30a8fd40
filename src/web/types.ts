// The shapes of the API's objects as the web app reads and sends them (docs/api-*.md).
// Types only, no DOM: the pure modules (and their unit tests under Node) import them
// from here; everything else through api.ts, which re-exports them.

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
  uri: string | null;
  users: Record<string, ProjectRoles>;
  revision: number;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
}

/** What a history (GET …/:uuid/history) adds to each revision. */
export interface Change {
  /** who made this revision (null: not recorded) */
  changed_by: string | null;
  /** when: ISO 8601 in UTC, with seconds */
  changed_at: string;
}

/** One revision of a project's history: the current one alone has `users`. */
export type ProjectRevision = Omit<Project, 'users'> & Partial<Pick<Project, 'users'>> & Change;

export interface ProjectRoles {
  member?: boolean;
  manager?: boolean;
  spectator?: boolean;
}

/** What a project is created or changed with. */
export interface ProjectFields {
  name: string;
  uri: string | null;
  slugs: string[];
  default_activity: string | null;
  users: Record<string, ProjectRoles>;
}

export interface Activity {
  uuid: string;
  name: string;
  slug: string;
}

/** One revision of an activity's history (one the old server deleted has no slug). */
export interface ActivityRevision extends Change {
  uuid: string;
  revision: number;
  name: string;
  slug: string | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
}

export interface User {
  username: string;
  display_name: string | null;
  email: string | null;
  site_admin: boolean;
  site_manager: boolean;
  site_spectator: boolean;
  active: boolean;
  'org-roles': string[];
  deleted_at: string | null;
}

/** What a user is created or changed with (`password`: a bcrypt hash, SPEC §4.4). */
export interface UserFields {
  username: string;
  display_name: string | null;
  email: string | null;
  password: string;
  site_admin: boolean;
  site_manager: boolean;
  site_spectator: boolean;
  active: boolean;
  'org-roles': string[];
}

/** An activity or an organization role: a name and a slug. */
export interface Named {
  uuid?: string;
  name: string;
  slug: string;
  /** Activities only: set when deleted (listed with include_deleted). */
  deleted_at?: string | null;
}

export interface Time {
  uuid: string;
  revision: number;
  duration: number;
  user: string;
  project: string[];
  activities: string[];
  date_worked: string;
  notes: string | null;
  issue_uri: string | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
}

/** One revision of a time entry's history. */
export type TimeRevision = Time & Change;

/** What a time entry is created or changed with. */
export interface TimeFields {
  duration: number;
  user: string;
  project: string;
  activities: string[];
  date_worked: string;
  notes: string | null;
  issue_uri: string | null;
}

export interface Timer {
  project: string[];
  activities: string[];
  notes: string | null;
  issue_uri: string | null;
  date_worked: string;
  started_at: string;
  elapsed: number;
}

export interface TimesQuery {
  user?: string[];
  project?: string[];
  activity?: string[];
  start?: string;
  end?: string;
  include_deleted?: 'true';
  limit?: string;
  skip?: string;
}

export type Grouping = 'project' | 'activity' | 'user' | 'day' | 'week' | 'month';

export interface ReportQuery extends Omit<TimesQuery, 'limit' | 'skip'> {
  start: string;
  end: string;
  group_by: Grouping[];
}

/** A row of a report: one key per grouping (`project` adds `project_name`), then totals. */
export interface ReportRow {
  project?: string[];
  project_name?: string;
  activity?: string;
  user?: string;
  day?: string;
  week?: string;
  month?: string;
  duration: number;
  entries: number;
}

export interface Report {
  start: string;
  end: string;
  group_by: Grouping[];
  rows: ReportRow[];
  total: { duration: number; entries: number };
}
