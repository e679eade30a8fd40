// Users: created by site managers and admins, updated in place (no revisions), soft
// deleted by admins; usernames are never reused (SPEC §3, §4.4, §5).
import { type Db, writeTransaction } from '../db/open';
import {
  authorizationFailure,
  invalidForeignKey,
  invalidUsername,
  notFound,
  usernameAlreadyExists,
} from '../errors';
import { parseObject } from '../http/validate';
import { isUsername, RESERVED_USERNAMES } from '../identifiers';
import {
  type Actor,
  canCreateUsers,
  canDeleteUsers,
  canSetUserField,
  type UserField,
} from '../policy';
import type { RoleService } from '../roles/service';
import { createUserSchema, type UserInput, updateUserSchema } from './schema';
import { toUserJson, type UserFields, type UserRow, type UserStore } from './store';

const DEFAULTS: UserFields = {
  display_name: null,
  password_hash: null,
  email: null,
  meta: null,
  site_spectator: false,
  site_manager: false,
  site_admin: false,
  active: true,
};

export type UserService = ReturnType<typeof createUserService>;

export function createUserService(db: Db, users: UserStore, roles: RoleService) {
  const find = (username: string, includeDeleted: boolean): UserRow => {
    const row = users.findByUsername(username);
    if (!row || (row.deleted_at !== null && !includeDeleted)) throw notFound('user');
    return row;
  };

  const roleIds = (input: UserInput): number[] | undefined => {
    const slugs = input['org-roles'];
    if (slugs === undefined) return undefined;
    const ids = roles.idsOf(slugs ?? []);
    if (!ids) throw invalidForeignKey('user', 'org-role');
    return ids;
  };

  /** The stored fields after applying the input; `changed` lists what differs. */
  const apply = (base: UserFields, baseRoles: string[], input: UserInput) => {
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
    set('site_spectator', 'site_spectator', input.site_spectator);
    set('site_manager', 'site_manager', input.site_manager);
    set('site_admin', 'site_admin', input.site_admin);
    set('active', 'active', input.active);
    const newRoles = input['org-roles'];
    if (newRoles !== undefined && [...new Set(newRoles ?? [])].sort().join() !== baseRoles.join()) {
      changed.push('org-roles');
    }
    return { next, changed };
  };

  const assertMaySet = (
    actor: Actor,
    target: number | undefined,
    fields: UserField[],
    who: string,
  ) => {
    for (const field of fields) {
      if (!canSetUserField(actor, target, field)) {
        throw authorizationFailure(actor.username, `set ${field} of ${who}`);
      }
    }
  };

  return {
    get: (username: string, includeDeleted: boolean) => toUserJson(find(username, includeDeleted)),

    findActor: users.findActor,

    create(actor: Actor, input: unknown) {
      const parsed = parseObject(createUserSchema, input, 'user');
      const { username, displayname, ...rest } = parsed;
      if (!isUsername(username) || RESERVED_USERNAMES.includes(username.toLowerCase())) {
        throw invalidUsername(username);
      }
      const fields = { ...rest, display_name: rest.display_name ?? displayname };
      roleIds(fields); // kind 3 before kind 9 (SPEC §3 order)
      if (!canCreateUsers(actor)) throw authorizationFailure(actor.username, 'create users');
      const { next, changed } = apply(DEFAULTS, [], fields);
      assertMaySet(actor, undefined, changed, 'new users');
      return writeTransaction(db, () => {
        if (users.idOf(username) !== undefined) throw usernameAlreadyExists(username);
        const ids = roleIds(fields) ?? []; // again under the lock: a role may have been deleted
        const id = users.insert(username, next, Date.now());
        users.replaceOrgRoles(id, ids);
        return toUserJson(find(username, false));
      });
    },

    update(actor: Actor, username: string, input: unknown) {
      const target = find(username, actor.siteAdmin); // an admin's update restores a deleted user
      const fields = parseObject(updateUserSchema, input, 'user');
      roleIds(fields); // kind 3 before kind 9 (SPEC §3 order)
      const self = target.id === actor.id;
      if (!self && !actor.siteAdmin && !actor.siteManager) {
        throw authorizationFailure(actor.username, `update user ${target.username}`);
      }
      return writeTransaction(db, () => {
        // Re-read under the write lock: building on the row read before would undo a
        // change another process committed meanwhile (lost update).
        const latest = find(target.username, actor.siteAdmin);
        const current: UserFields = {
          display_name: latest.display_name,
          password_hash: latest.password_hash,
          email: latest.email,
          meta: latest.meta,
          site_spectator: latest.site_spectator === 1,
          site_manager: latest.site_manager === 1,
          site_admin: latest.site_admin === 1,
          active: latest.active === 1,
        };
        const { next, changed } = apply(current, JSON.parse(latest.org_roles) as string[], fields);
        assertMaySet(actor, latest.id, changed, `user ${latest.username}`);
        if (latest.deleted_at !== null) next.active = fields.active ?? true; // restoring
        users.update(latest.id, next, Date.now(), null);
        const ids = roleIds(fields); // again under the lock: a role may have been deleted
        if (ids) users.replaceOrgRoles(latest.id, ids);
        return toUserJson(find(latest.username, false));
      });
    },

    remove(actor: Actor, username: string) {
      const target = find(username, false);
      if (!canDeleteUsers(actor))
        throw authorizationFailure(actor.username, `delete user ${target.username}`);
      writeTransaction(db, () => {
        if (!users.softDelete(target.id, Date.now())) throw notFound('user'); // deleted meanwhile
      });
    },
  };
}
