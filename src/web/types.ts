// The shapes of the API's objects as the web app reads and sends them (docs/api-*.md):
// the server's own, declared once in src/shapes/ (which also makes the OpenAPI
// document), so a field the server adds reaches the web app's types, and one it drops
// fails this build. Types only, no DOM: the pure modules (and their unit tests under
// Node) import them from here; everything else through api.ts, which re-exports them.
// Only what the web app sends as query parameters is written here.
import type { ActivityCreate, Activity as AnyActivity } from '../shapes/activity';
import type { OrgRole, OrgRoleCreate } from '../shapes/org-role';
import type { ProjectCreate } from '../shapes/project';
import type { Grouping } from '../shapes/report';
import type { TimeCreate } from '../shapes/time';
import type { UserCreate } from '../shapes/user';

export type { ActivityHistoryRevision as ActivityRevision } from '../shapes/activity';
export type { Lock, WeekPart, WeekPartDecision, WeekPartStatus } from '../shapes/approval';
export type { ErrorBody } from '../shapes/error';
export type { ImportReport } from '../shapes/import';
export type { KeptRow, KeptRows, KeptRowsUpdate } from '../shapes/kept-rows';
export type { Info } from '../shapes/meta';
export type { OrgRole } from '../shapes/org-role';
export type {
  NewPersonalToken,
  PersonalToken,
  PersonalTokenCreate,
} from '../shapes/personal-token';
/** One revision of a history (GET …/:uuid/history): as served, who made it and when. */
export type { Project, ProjectHistoryRevision as ProjectRevision } from '../shapes/project';
export type { Grouping, Report, ReportRow } from '../shapes/report';
export type { Time, TimeHistoryRevision as TimeRevision } from '../shapes/time';
export type { Timer } from '../shapes/timer';
export type { User } from '../shapes/user';

/** A user's permissions on a project, as a write sends them: a missing flag is false. */
export type ProjectRoles = NonNullable<ProjectCreate['users']>[string];

/** What a project is created or changed with. */
export type ProjectFields = Required<Omit<ProjectCreate, 'owner'>> & {
  users: Record<string, ProjectRoles>;
};

/** A live activity: the only kind GET /v0/activities lists without include_deleted. */
export type Activity = AnyActivity & { slug: string };

/** What a user is created or changed with (`password`: a bcrypt hash, SPEC §4.4). */
export type UserFields = Required<Omit<UserCreate, 'displayname' | 'meta'>> & {
  'org-roles': string[];
};

/**
 * An activity or an organization role: a name and a slug. An activity listed with
 * include_deleted also has its uuid and deleted_at, and one the old reference server
 * deleted has no slug (null).
 */
export type Named = Omit<OrgRole, 'slug'> &
  Partial<Pick<AnyActivity, 'uuid' | 'deleted_at'>> & { slug: AnyActivity['slug'] };

/** What an activity or an organization role is created or changed with. */
export type NamedFields = ActivityCreate & OrgRoleCreate;

/** What a time entry is created or changed with. */
export type TimeFields = Required<TimeCreate>;

export interface TimesQuery {
  user?: string[];
  project?: string[];
  activity?: string[];
  start?: string;
  end?: string;
  include_deleted?: 'true';
  /** Extension: entries whose notes contain this text. */
  notes_contains?: string;
  /** Extension: the list's order (absent: last change). */
  order?: EntryOrder;
  limit?: string;
  skip?: string;
  /** Only entries whose week part is approved, submitted or open (issue 32). */
  status?: 'approved' | 'submitted' | 'open';
}

/** The filters of GET /v0/approvals. */
export interface ApprovalsQuery {
  user?: string[];
  project?: string[];
  start?: string;
  end?: string;
  status?: 'open' | 'submitted' | 'approved' | 'rejected';
}

export type EntryOrder = 'date_worked' | '-date_worked' | 'duration' | '-duration';

export interface ReportQuery extends Omit<TimesQuery, 'limit' | 'skip' | 'order'> {
  start: string;
  end: string;
  group_by: Grouping[];
}
