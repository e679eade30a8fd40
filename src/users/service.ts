// Users: listed for everyone, created by site managers and admins, updated in place (no
// revisions), soft deleted by admins; usernames are never reused (SPEC §3, §4.4, §5).
import { type Db, writeTransaction } from '../db/open';
import { invalidForeignKey, invalidUsername, notFound } from '../errors';
import type { Listing } from '../http/list';
import { booleanParam, listParam, pagingParams } from '../http/query';
import { isNewUsername, isSlug } from '../identifiers';
import { type Actor, authorize, type UserField } from '../policy';
import { parseObject } from '../validate';
import { toUserJson, type UserRow } from './json';
import { NEW_USER_DEFAULTS, registerUser } from './register';
import { createUserSchema, type UserInput, updateUserSchema } from './schema';
import type { UserFields, UserStore } from './store';

export type UserService = ReturnType<typeof createUserService>;

export interface UserServiceDeps {
  db: Db;
  users: UserStore;
  /** Org-role ids for slugs; undefined when any slug names no role. */
  roleIdsOf: (slugs: readonly string[]) => number[] | undefined;
  defaultLimit: number;
}

/** The stored fields of a row. */
const fieldsOf = (row: UserRow): UserFields => ({
  display_name: row.display_name,
  password_hash: row.password_hash,
  email: row.email,
  meta: row.meta,
  timezone: row.timezone,
  site_spectator: row.site_spectator === 1,
  site_manager: row.site_manager === 1,
  site_admin: row.site_admin === 1,
  active: row.active === 1,
});

/** The stored fields after applying the input; `changed` lists what differs. */
function apply(base: UserFields, baseRoles: string[], input: UserInput) {
  const next: UserFields = { ...base };
  const changed: UserField[] = [];
  const set = <K extends keyof UserFields>(
    key: K,
    field: UserField,
    value: UserFields[K] | undefined,
  ) => {
    if (value === undefined || value === base[key]) return;
    next[key] = value;
    changed.push(field);
  };
  set('display_name', 'display_name', input.display_name);
  set('password_hash', 'password', input.password);
  set('email', 'email', input.email);
  set('meta', 'meta', input.meta);
  set('timezone', 'timezone', input.timezone);
  set('site_spectator', 'site_spectator', input.site_spectator);
  set('site_manager', 'site_manager', input.site_manager);
  set('site_admin', 'site_admin', input.site_admin);
  set('active', 'active', input.active);
  const newRoles = input['org-roles'];
  if (newRoles !== undefined && [...new Set(newRoles ?? [])].sort().join() !== baseRoles.join()) {
    changed.push('org-roles');
  }
  return { next, changed };
}

export function createUserService(deps: UserServiceDeps) {
  const { db, users } = deps;
  const find = (username: string, includeDeleted: boolean): UserRow => {
    const row = users.findByUsername(username);
    if (!row || (row.deleted_at !== null && !includeDeleted)) throw notFound('user');
    return row;
  };

  /** The org-role ids sent (undefined: not sent), or kind 3. */
  const roleIds = (input: UserInput): number[] | undefined => {
    const slugs = input['org-roles'];
    if (slugs === undefined) return undefined;
    const ids = deps.roleIdsOf(slugs ?? []);
    if (!ids) throw invalidForeignKey('user', 'org-role');
    return ids;
  };

  return {
    list(query: URLSearchParams): Listing {
      const includeDeleted = booleanParam(query, 'include_deleted');
      const roles = listParam(query, 'role', (s) =>
        isSlug(s) && deps.roleIdsOf([s]) !== undefined ? s : undefined,
      );
      return {
        paging: pagingParams(query, deps.defaultLimit),
        open: () => users.openList({ includeDeleted, roles }),
      };
    },

    get: (username: string, query: URLSearchParams) =>
      toUserJson(find(username, booleanParam(query, 'include_deleted'))),

    /** The actor behind a token: only active, undeleted users. */
    findActor: users.findActor,

    /** The same, with what revokes their tokens (auth/session.ts). */
    findTokenHolder: users.findTokenHolder,

    /** Any user's id (deleted ones too: usernames are never reused). */
    idOf: users.idOf,

    create: (actor: Actor, input: unknown) =>
      writeTransaction(db, () => {
        const { username, displayname, ...rest } = parseObject(createUserSchema, input, 'user');
        // Checked here too (registerUser repeats it) so that kind 6 comes before 3 and 9.
        if (!isNewUsername(username)) throw invalidUsername(username);
        const fields = { ...rest, display_name: rest.display_name ?? displayname };
        const ids = roleIds(fields); // kind 3 before kind 9 (SPEC §3 order)
        authorize(actor, { do: 'create user' });
        const { next, changed } = apply(NEW_USER_DEFAULTS, [], fields);
        for (const field of changed) authorize(actor, { do: 'set user field', field });
        return toUserJson(registerUser(db, users, { username, fields: next, roleIds: ids }));
      }),

    update: (actor: Actor, username: string, input: unknown) =>
      writeTransaction(db, () => {
        const target = find(username, actor.siteAdmin); // an admin's update restores a deleted user
        const fields = parseObject(updateUserSchema, input, 'user');
        const ids = roleIds(fields); // kind 3 before kind 9 (SPEC §3 order)
        const who = { username: target.username, targetId: target.id };
        authorize(actor, { do: 'update user', ...who });
        const baseRoles = JSON.parse(target.org_roles) as string[];
        const base = fieldsOf(target);
        const { next, changed } = apply(base, baseRoles, fields);
        for (const field of changed) authorize(actor, { do: 'set user field', field, ...who });
        const restoring = target.deleted_at !== null;
        if (restoring) next.active = fields.active ?? true;
        const now = Date.now();
        users.update(target.id, next, now, null);
        if (ids) users.replaceOrgRoles(target.id, ids);
        // SPEC §11: a new password, a change of `active` or a restore ends every token
        // issued until now; the caller's own password change keeps the caller's token.
        if (changed.includes('password') || next.active !== base.active || restoring) {
          const own = actor.id === target.id && next.active && !restoring;
          users.revokeTokens(target.id, now, own ? (actor.tokenIssuedAt ?? null) : null);
        }
        return toUserJson(find(target.username, false));
      }),

    remove: (actor: Actor, username: string) =>
      writeTransaction(db, () => {
        const target = find(username, false);
        authorize(actor, { do: 'delete user', username: target.username });
        users.softDelete(target.id, Date.now());
      }),

    /** POST /v0/logout: the token the actor came with is refused from now on. */
    signOut: (actor: Actor) =>
      writeTransaction(db, () => {
        const { tokenIssuedAt, tokenExpiresAt } = actor;
        if (tokenIssuedAt === undefined || tokenExpiresAt === undefined) return;
        users.signOut(actor.id, tokenIssuedAt, tokenExpiresAt, Date.now());
      }),
  };
}
