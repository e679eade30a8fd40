// The one way an account comes to exist: POST /v0/users, `admin create-user`, the first
// administrator and LDAP auto-create all call registerUser, so the username rule, the
// uniqueness check and the stored defaults are the same for every path.
import { type Db, writeTransaction } from '../db/open';
import { invalidUsername, usernameAlreadyExists } from '../errors';
import { isNewUsername } from '../identifiers';
import type { UserRow } from './json';
import type { UserFields, UserStore } from './store';

/** A new user's stored fields when nothing else is said. */
export const NEW_USER_DEFAULTS: Readonly<UserFields> = Object.freeze({
  display_name: null,
  password_hash: null,
  email: null,
  meta: null,
  timezone: null,
  site_spectator: false,
  site_manager: false,
  site_admin: false,
  active: true,
});

export interface NewAccount {
  username: string;
  /** Fields that differ from NEW_USER_DEFAULTS. */
  fields?: Partial<UserFields>;
  roleIds?: readonly number[];
}

/**
 * Creates the user in one write transaction (a savepoint inside a caller's): kind 6 for a
 * username the rule refuses, kind 12 when it is taken in any letter case (deleted users
 * keep theirs). Answers the stored row.
 */
export function registerUser(db: Db, users: UserStore, account: NewAccount): UserRow {
  const { username } = account;
  return writeTransaction(db, () => {
    if (!isNewUsername(username)) throw invalidUsername(username);
    if (users.idOf(username) !== undefined) throw usernameAlreadyExists(username);
    const id = users.insert(username, { ...NEW_USER_DEFAULTS, ...account.fields }, Date.now());
    users.replaceOrgRoles(id, account.roleIds ?? []);
    return users.findByUsername(username) as UserRow;
  });
}
