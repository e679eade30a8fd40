// Who may do what (SPEC §3), as pure functions of the actor and the facts about the
// target, and `authorize`, which services call: it decides with those functions and
// throws kind 9 with the refusal text written here. Nothing else in the code decides
// permissions or words a refusal. Tested as a table in test/api/permissions/policy.test.ts.
import { authorizationFailure } from './errors';

export interface Actor {
  id: number;
  username: string;
  siteSpectator: boolean;
  siteManager: boolean;
  siteAdmin: boolean;
  /** `iat` (ms) of the token the request came with: a user's own password change keeps it. */
  tokenIssuedAt?: number;
  /** `exp` (ms) of that token: a sign-out is kept until then. */
  tokenExpiresAt?: number;
  /** Set when the request came with a personal API token (issue 33) rather than a JWT. */
  personalToken?: PersonalTokenGrant;
}

/** Which personal token a request came with, and what it may do. */
export interface PersonalTokenGrant {
  id: number;
  /** `read`: every write is refused; `write`: acts as the owner, within the limits below. */
  scope: 'read' | 'write';
}

/** The actor's (or another user's) entry in a project's users map. */
export interface ProjectRole {
  member: boolean;
  spectator: boolean;
  manager: boolean;
}

export const NO_ROLE: ProjectRole = Object.freeze({
  member: false,
  spectator: false,
  manager: false,
});

const isSiteManager = (a: Actor) => a.siteAdmin || a.siteManager;

// Projects and activities --------------------------------------------------------------

export const canCreateProject = (actor: Actor): boolean => isSiteManager(actor);

/** Update a project (including its users map), delete it or restore it. */
export const canManageProject = (actor: Actor, role: ProjectRole): boolean =>
  isSiteManager(actor) || role.manager;

export const canWriteActivities = (actor: Actor): boolean => isSiteManager(actor);

// Time entries -------------------------------------------------------------------------

export interface TimeFacts {
  ownerId: number;
  /** The actor's role in the time's project. */
  role: ProjectRole;
}

/**
 * Site spectators, site managers and admins see every time; anyone else only their own
 * and those of projects they manage or spectate (times/store.ts says the same in SQL).
 */
export const seesAllTimes = (actor: Actor): boolean =>
  actor.siteAdmin || actor.siteManager || actor.siteSpectator;

export const canViewTime = (actor: Actor, time: TimeFacts): boolean =>
  seesAllTimes(actor) || time.ownerId === actor.id || time.role.manager || time.role.spectator;

/**
 * A time entry's user must be a member of its project, whoever creates or moves it
 * (the one rule admins are bound by too).
 */
export const mayOwnTimeIn = (ownerRole: ProjectRole): boolean => ownerRole.member;

/** Creating a time for forUserId: for oneself, or for anyone when admin; plus mayOwnTimeIn. */
export const canCreateTime = (actor: Actor, forUserId: number, forUserRole: ProjectRole): boolean =>
  mayOwnTimeIn(forUserRole) && (forUserId === actor.id || actor.siteAdmin);

/**
 * Updating a time: its owner and admins; only admins move it to another user. When the
 * user or project changes, the service also checks mayOwnTimeIn for the result.
 */
export const canUpdateTime = (actor: Actor, ownerId: number, changesUser: boolean): boolean =>
  actor.siteAdmin || (!changesUser && ownerId === actor.id);

export const canDeleteTime = (actor: Actor, ownerId: number): boolean =>
  isSiteManager(actor) || ownerId === actor.id;

// Imports from other trackers (issue 31) -------------------------------------------------

/**
 * Importing rows of another person: admins, and site managers, who may create the
 * projects such rows need; anyone imports their own. Creating users, projects and
 * activities and adding members on the way take their own permissions
 * (canCreateUsers, canCreateProject, canWriteActivities, canManageProject).
 */
export const canImportRowsOf = (actor: Actor, ownerId: number): boolean =>
  isSiteManager(actor) || ownerId === actor.id;

/** The person themselves, or an admin (support): the rule of a person's own things. */
const isSelfOrAdmin = (actor: Actor, ownerId: number): boolean =>
  ownerId === actor.id || actor.siteAdmin;

// Running timers ------------------------------------------------------------------------

/**
 * Reading, stopping or discarding a user's running timer: one's own, or anyone's for
 * admins (support). Starting one is creating a time for oneself (canCreateTime).
 */
export const canHandleTimerOf = isSelfOrAdmin;

// Weekly submission, approval and the lock date (issue 32) ----------------------------

/** Submitting a person's week: that person, or an admin. */
export const canSubmitWeekOf = isSelfOrAdmin;

/**
 * Approving, rejecting or reopening one person's week on a project: the project's
 * managers, site managers and admins, and never for one's own entries (admins included).
 */
export const canDecideWeekOf = (actor: Actor, ownerId: number, role: ProjectRole): boolean =>
  ownerId !== actor.id && (isSiteManager(actor) || role.manager);

/**
 * Reading or replacing the rows a person keeps on a week of their timesheet (issue 34):
 * that person, or an admin.
 */
export const canKeepRowsOf = isSelfOrAdmin;

/** Setting the lock date: admins only (everyone may read it). */
export const canSetLockDate = (actor: Actor): boolean => actor.siteAdmin;

// Users and org roles ------------------------------------------------------------------

export const canCreateUsers = (actor: Actor): boolean => isSiteManager(actor);
/** Updating a user at all: oneself, or anyone for site managers and admins (then per field). */
export const canUpdateUser = (actor: Actor, targetId: number): boolean =>
  targetId === actor.id || isSiteManager(actor);
export const canDeleteUsers = (actor: Actor): boolean => actor.siteAdmin;
export const canWriteOrgRoles = (actor: Actor): boolean => isSiteManager(actor);

export type UserField =
  | 'display_name'
  | 'email'
  | 'meta'
  | 'timezone'
  | 'org-roles'
  | 'password'
  | 'site_spectator'
  | 'site_manager'
  | 'site_admin'
  | 'active';

const ADMIN_ONLY_FLAGS: readonly UserField[] = ['site_manager', 'site_admin', 'active'];
const FLAGS: readonly UserField[] = ['site_spectator', ...ADMIN_ONLY_FLAGS];
const PROFILE: readonly UserField[] = ['display_name', 'email', 'meta', 'org-roles'];

/**
 * May the actor set this field of a user (on create, targetId is undefined)? Fields whose
 * value does not change are not asked about: a client may echo a user back unchanged.
 */
export function canSetUserField(
  actor: Actor,
  targetId: number | undefined,
  field: UserField,
): boolean {
  if (actor.personalToken && barredToPersonalTokens(targetId, field)) return false;
  return mayRoleSetUserField(actor, targetId, field);
}

/** canSetUserField by the actor's flags alone, whatever token the request came with. */
function mayRoleSetUserField(actor: Actor, targetId: number | undefined, field: UserField) {
  if (actor.siteAdmin) return true;
  const self = targetId === actor.id;
  if (self) return !FLAGS.includes(field);
  if (!actor.siteManager) return false;
  if (field === 'password') return targetId === undefined; // a new user's first password
  if (ADMIN_ONLY_FLAGS.includes(field)) return false;
  return field === 'site_spectator' || PROFILE.includes(field);
}

// Personal API tokens (issue 33) -------------------------------------------------------------

/**
 * What a personal token may never do, whatever its scope and its owner's rights, so that
 * a leaked script token cannot take the account over: change a password (a new user's
 * first one is no takeover) or any site flag (`active` included). Making and revoking
 * tokens are refused to it too (the deeds below).
 */
const barredToPersonalTokens = (targetId: number | undefined, field: UserField): boolean =>
  FLAGS.includes(field) || (field === 'password' && targetId !== undefined);

/** A read-only token may not write at all. */
export const mayWrite = (actor: Actor): boolean => actor.personalToken?.scope !== 'read';

/** Listing a user's tokens: one's own, or anyone's for site admins. */
export const canListTokensOf = (actor: Actor, ownerId: number): boolean =>
  ownerId === actor.id || actor.siteAdmin;

/** Revoking a token: its owner or a site admin, never with a personal token. */
export const canRevokeToken = (actor: Actor, ownerId: number): boolean =>
  !actor.personalToken && canListTokensOf(actor, ownerId);

// The one door services go through --------------------------------------------------------

/** What a service is about to do, with the facts the decision needs. */
export type Deed =
  | { do: 'create project' | 'create activity' | 'create org-role' | 'create user' }
  | { do: 'update project' | 'delete project'; slug: string; role: ProjectRole }
  /** A deleted project or activity has released its slugs, so it is named by uuid. */
  | { do: 'restore project'; uuid: string; role: ProjectRole }
  | {
      do: 'update activity' | 'delete activity' | 'update org-role' | 'delete org-role';
      slug: string;
    }
  | { do: 'restore activity'; uuid: string }
  | { do: 'update user'; username: string; targetId: number }
  | { do: 'delete user'; username: string }
  /** targetId and username undefined: a user being created. */
  | { do: 'set user field'; field: UserField; targetId?: number; username?: string }
  | { do: 'view time'; uuid: string; ownerId: number; role: ProjectRole }
  | {
      do: 'create time';
      owner: { id: number; username: string };
      project: string;
      ownerRole: ProjectRole;
    }
  | { do: 'update time'; uuid: string; ownerId: number; changesUser: boolean }
  | { do: 'move time'; uuid: string; to: string; project: string; ownerRole: ProjectRole }
  | { do: 'delete time'; uuid: string; ownerId: number }
  | { do: 'read timer' | 'stop timer' | 'discard timer'; username: string; ownerId: number }
  /** Any request but GET and HEAD, with a personal token (its scope decides). */
  | { do: 'write'; method: string; path: string }
  | { do: 'create token' | 'sign out' | 'renew session' }
  | { do: 'list tokens'; username: string; ownerId: number }
  | { do: 'revoke token'; id: number; ownerId: number }
  | { do: 'submit week'; username: string; week: string; ownerId: number }
  | {
      do: 'approve week' | 'reject week' | 'reopen week' | 'view week';
      username: string;
      week: string;
      project: string;
      ownerId: number;
      role: ProjectRole;
    }
  | { do: 'set lock date' }
  | { do: 'read kept rows' | 'keep rows'; username: string; week: string; ownerId: number };

/** Whether the actor may do the deed. */
export function permits(actor: Actor, deed: Deed): boolean {
  switch (deed.do) {
    case 'create project':
      return canCreateProject(actor);
    case 'update project':
    case 'delete project':
    case 'restore project':
      return canManageProject(actor, deed.role);
    case 'create activity':
    case 'update activity':
    case 'delete activity':
    case 'restore activity':
      return canWriteActivities(actor);
    case 'create org-role':
    case 'update org-role':
    case 'delete org-role':
      return canWriteOrgRoles(actor);
    case 'create user':
      return canCreateUsers(actor);
    case 'update user':
      return canUpdateUser(actor, deed.targetId);
    case 'delete user':
      return canDeleteUsers(actor);
    case 'set user field':
      return canSetUserField(actor, deed.targetId, deed.field);
    case 'view time':
      return canViewTime(actor, { ownerId: deed.ownerId, role: deed.role });
    case 'create time':
      return canCreateTime(actor, deed.owner.id, deed.ownerRole);
    case 'update time':
      return canUpdateTime(actor, deed.ownerId, deed.changesUser);
    case 'move time':
      return mayOwnTimeIn(deed.ownerRole);
    case 'delete time':
      return canDeleteTime(actor, deed.ownerId);
    case 'read timer':
    case 'stop timer':
    case 'discard timer':
      return canHandleTimerOf(actor, deed.ownerId);
    case 'write':
      return mayWrite(actor);
    case 'create token':
    case 'sign out':
    case 'renew session':
      // A personal token is ended by revoking it; POST /v0/logout ends JWTs. Nor may it
      // be exchanged for a login token (POST /v0/login/renew), which has no scope.
      return !actor.personalToken;
    case 'list tokens':
      return canListTokensOf(actor, deed.ownerId);
    case 'revoke token':
      return canRevokeToken(actor, deed.ownerId);
    case 'submit week':
      return canSubmitWeekOf(actor, deed.ownerId);
    case 'approve week':
    case 'reject week':
    case 'reopen week':
      return canDecideWeekOf(actor, deed.ownerId, deed.role);
    case 'view week':
      return canViewTime(actor, { ownerId: deed.ownerId, role: deed.role });
    case 'set lock date':
      return canSetLockDate(actor);
    case 'read kept rows':
    case 'keep rows':
      return canKeepRowsOf(actor, deed.ownerId);
  }
}

const CREATE_TEXT = {
  'create project': 'create projects',
  'create activity': 'create activities',
  'create org-role': 'create org-roles',
  'create user': 'create users',
} as const;

/** The `<action>` of the kind 9 text `<caller> is not authorized to <action>` (SPEC §7). */
function refusedAction(actor: Actor, deed: Deed): string {
  switch (deed.do) {
    case 'create project':
    case 'create activity':
    case 'create org-role':
    case 'create user':
      return CREATE_TEXT[deed.do];
    case 'update project':
    case 'delete project':
    case 'update activity':
    case 'delete activity':
    case 'update org-role':
    case 'delete org-role':
      return `${deed.do} ${deed.slug}`;
    case 'restore project':
    case 'restore activity':
      return `${deed.do} ${deed.uuid}`;
    case 'update user':
    case 'delete user':
      return `${deed.do} ${deed.username}`;
    case 'set user field': {
      const target = deed.username === undefined ? 'new users' : `user ${deed.username}`;
      // Said only when the token is what stops it: the owner could do it after logging in.
      const token = mayRoleSetUserField(actor, deed.targetId, deed.field)
        ? ' with a personal token'
        : '';
      return `set ${deed.field} of ${target}${token}`;
    }
    case 'view time':
    case 'update time':
    case 'delete time':
      return `${deed.do} ${deed.uuid}`;
    case 'create time':
      // A member creating for someone else vs. anyone creating for a non-member.
      return `create time entries for ${deed.owner.username}${mayOwnTimeIn(deed.ownerRole) ? '' : ` in project ${deed.project}`}`;
    case 'move time':
      return `move time ${deed.uuid} to ${deed.to} in project ${deed.project}`;
    case 'read timer':
    case 'stop timer':
    case 'discard timer':
      return `${deed.do.split(' ')[0]} the timer of ${deed.username}`;
    case 'write':
      return `${deed.method} ${deed.path} with a read-only token`;
    case 'create token':
      return 'create tokens with a personal token';
    case 'sign out':
      return 'sign out with a personal token';
    case 'renew session':
      return 'renew a session with a personal token';
    case 'list tokens':
      return `list the tokens of ${deed.username}`;
    case 'revoke token':
      return actor.personalToken
        ? 'revoke tokens with a personal token'
        : `revoke token ${deed.id}`;
    case 'submit week':
      return `submit week ${deed.week} of ${deed.username}`;
    case 'approve week':
    case 'reject week':
    case 'reopen week':
    case 'view week':
      return `${deed.do} ${deed.week} of ${deed.username} in project ${deed.project}`;
    case 'set lock date':
      return 'set the lock date';
    case 'read kept rows':
      return `read the kept rows of week ${deed.week} of ${deed.username}`;
    case 'keep rows':
      return `keep rows in week ${deed.week} of ${deed.username}`;
  }
}

/** Throws kind 9 unless the actor may do the deed. */
export function authorize(actor: Actor, deed: Deed): void {
  if (!permits(actor, deed)) throw authorizationFailure(actor.username, refusedAction(actor, deed));
}
