// Who may do what (SPEC §3), as pure functions of the actor and the facts about the
// target. Services ask these and throw kind 9 with the action text below; nothing else
// in the code decides permissions. Tested as a table in test/policy.test.ts.

export interface Actor {
  id: number;
  username: string;
  siteSpectator: boolean;
  siteManager: boolean;
  siteAdmin: boolean;
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

/** Update a project (including its users map) or delete it. */
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

// Users and org roles ------------------------------------------------------------------

export const canCreateUsers = (actor: Actor): boolean => isSiteManager(actor);
export const canDeleteUsers = (actor: Actor): boolean => actor.siteAdmin;
export const canWriteOrgRoles = (actor: Actor): boolean => isSiteManager(actor);

export type UserField =
  | 'display_name'
  | 'email'
  | 'meta'
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
  if (actor.siteAdmin) return true;
  const self = targetId === actor.id;
  if (self) return !FLAGS.includes(field);
  if (!actor.siteManager) return false;
  if (field === 'password') return targetId === undefined; // a new user's first password
  if (ADMIN_ONLY_FLAGS.includes(field)) return false;
  return field === 'site_spectator' || PROFILE.includes(field);
}
