// SQL of users: prepared once. Rows become API objects in json.ts.
import { readList } from '../db/list-reader';
import type { Db } from '../db/open';
import type { ReaderPool } from '../db/readers';
import { columnsSql } from '../db/sql-json';
import type { Actor } from '../policy';
import { holderCacheOf } from './holder-cache';
import { type UserRow, userText } from './json';

/** The username of a user id expression, for statements of other objects that show it. */
export const usernameSql = (userId: string) => `(SELECT username FROM users WHERE id = ${userId})`;

export interface UserFields {
  display_name: string | null;
  password_hash: string | null;
  email: string | null;
  meta: string | null;
  /** IANA time zone name, or null (the server's) */
  timezone: string | null;
  site_spectator: boolean;
  site_manager: boolean;
  site_admin: boolean;
  active: boolean;
}

/** The user a token names (active, not deleted) and which of their tokens are revoked. */
export interface TokenHolder {
  actor: Actor;
  /** ms: tokens issued at or before it are revoked (sql/002_token_revocation.sql) */
  tokensValidAfter: number | null;
  /** iat of the one earlier token still accepted: the user's own password change's */
  keptTokenIat: number | null;
  /** iats of the user's tokens ended by POST /v0/logout that have not expired yet */
  signedOut: readonly number[];
}

/** Expired sign-outs deleted per sign-out: more than one, so the table keeps shrinking. */
const SIGN_OUT_SWEEP = 32;

/**
 * Returns once the clock has passed `ms`: a write that revokes tokens as of `ms` calls
 * it before committing, so that no token issued after the write carries that iat (at
 * most ~1 ms, and only on password changes, deactivations and deletions).
 */
function waitPast(ms: number): void {
  while (Date.now() <= ms) Atomics.wait(PAUSE, 0, 0, 1);
}
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Each column of a UserRow, typed so none can be forgotten; org-roles as a JSON array. */
const USER_COLUMNS = columnsSql<UserRow>({
  id: 'u.id',
  username: 'u.username',
  display_name: 'u.display_name',
  password_hash: 'u.password_hash',
  email: 'u.email',
  meta: 'u.meta',
  timezone: 'u.timezone',
  site_spectator: 'u.site_spectator',
  site_manager: 'u.site_manager',
  site_admin: 'u.site_admin',
  active: 'u.active',
  created_at: 'u.created_at',
  updated_at: 'u.updated_at',
  deleted_at: 'u.deleted_at',
  org_roles: `(SELECT json_group_array(r.slug ORDER BY r.slug) FROM user_org_roles ur
     JOIN org_roles r ON r.id = ur.role_id WHERE ur.user_id = u.id)`,
});

/** Lists are ordered by last change, then username (SPEC §6). */
const USER_ORDER = 'ORDER BY coalesce(u.updated_at, u.created_at), u.username';

export interface UserListFilters {
  includeDeleted: boolean;
  /** org-role slugs; a user matches if it holds any of them */
  roles: readonly string[];
}

/** The list query of GET /users: fixed SQL fragments chosen by which filters are present. */
function userListQuery(filters: UserListFilters) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (!filters.includeDeleted) where.push('u.deleted_at IS NULL');
  if (filters.roles.length > 0) {
    where.push(`EXISTS (SELECT 1 FROM user_org_roles ur JOIN org_roles r ON r.id = ur.role_id
      WHERE ur.user_id = u.id AND r.slug IN (SELECT value FROM json_each(?)))`);
    params.push(JSON.stringify(filters.roles));
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return {
    countSql: `SELECT count(*) FROM users u ${clause}`,
    pageSql: `SELECT ${USER_COLUMNS} FROM users u ${clause} ${USER_ORDER} LIMIT ? OFFSET ?`,
    params,
  };
}

export type UserStore = ReturnType<typeof createUserStore>;

export function createUserStore(db: Db, readers: ReaderPool) {
  const byUsername = db.prepare(`SELECT ${USER_COLUMNS} FROM users u WHERE u.username = ?`);
  const holderByUsername = db.prepare(
    `SELECT id, username, site_spectator, site_manager, site_admin, tokens_valid_after,
       kept_token_iat
     FROM users WHERE username = ? AND active = 1 AND deleted_at IS NULL`,
  );
  const idsByUsername = db.prepare('SELECT id FROM users WHERE username = ?').pluck();
  const insert = db.prepare(`INSERT INTO users (username, display_name, password_hash, email, meta,
      timezone, site_spectator, site_manager, site_admin, active, created_at)
    VALUES (@username, @display_name, @password_hash, @email, @meta, @timezone,
      @site_spectator, @site_manager, @site_admin, @active, @created_at)`);
  const update = db.prepare(`UPDATE users SET display_name = @display_name,
      password_hash = @password_hash, email = @email, meta = @meta, timezone = @timezone,
      site_spectator = @site_spectator, site_manager = @site_manager, site_admin = @site_admin,
      active = @active, updated_at = @updated_at, deleted_at = @deleted_at
    WHERE id = @id`);
  const clearRoles = db.prepare('DELETE FROM user_org_roles WHERE user_id = ?');
  const addRole = db.prepare('INSERT INTO user_org_roles (user_id, role_id) VALUES (?, ?)');
  const softDelete = db.prepare(
    `UPDATE users SET deleted_at = @now, active = 0, tokens_valid_after = @now,
       kept_token_iat = NULL
     WHERE id = @id AND deleted_at IS NULL`,
  );
  const count = db.prepare('SELECT count(*) FROM users').pluck();
  const setPassword = db.prepare(`UPDATE users SET password_hash = @hash, updated_at = @now,
      tokens_valid_after = @now, kept_token_iat = NULL
    WHERE id = @id`);
  const revokeTokens = db.prepare(
    'UPDATE users SET tokens_valid_after = @now, kept_token_iat = @kept WHERE id = @id',
  );
  const signedOutOf = db
    .prepare('SELECT issued_at FROM signed_out_tokens WHERE user_id = ? AND expires_at > ?')
    .pluck();
  const signOut = db.prepare(`INSERT INTO signed_out_tokens (user_id, issued_at, expires_at)
    VALUES (?, ?, ?) ON CONFLICT DO NOTHING`);
  const sweepSignedOut = db.prepare(`DELETE FROM signed_out_tokens
    WHERE (user_id, issued_at) IN (SELECT user_id, issued_at FROM signed_out_tokens
      WHERE expires_at <= ? ORDER BY expires_at LIMIT ${SIGN_OUT_SWEEP})`);

  const bit = (b: boolean) => (b ? 1 : 0);
  const params = (f: UserFields) => ({
    ...f,
    site_spectator: bit(f.site_spectator),
    site_manager: bit(f.site_manager),
    site_admin: bit(f.site_admin),
    active: bit(f.active),
  });

  const holders = holderCacheOf(db);
  const loadTokenHolder = (username: string): TokenHolder | undefined => {
    const row = holderByUsername.get(username) as
      | {
          id: number;
          username: string;
          site_spectator: number;
          site_manager: number;
          site_admin: number;
          tokens_valid_after: number | null;
          kept_token_iat: number | null;
        }
      | undefined;
    return row
      ? {
          actor: {
            id: row.id,
            username: row.username,
            siteSpectator: row.site_spectator === 1,
            siteManager: row.site_manager === 1,
            siteAdmin: row.site_admin === 1,
          },
          tokensValidAfter: row.tokens_valid_after,
          keptTokenIat: row.kept_token_iat,
          signedOut: signedOutOf.all(row.id, Date.now()) as number[],
        }
      : undefined;
  };
  const findTokenHolder = (username: string) => holders.get(username, loadTokenHolder);

  return {
    /** Any user with that username (case-insensitive), deleted ones included. */
    findByUsername: (username: string) => byUsername.get(username) as UserRow | undefined,

    /** The user behind a token: only active, undeleted users. */
    findTokenHolder,

    /** The actor behind a token: only active, undeleted users. */
    findActor: (username: string): Actor | undefined => findTokenHolder(username)?.actor,

    /** The list of GET /users in a snapshot of its own. */
    openList: (filters: UserListFilters) => readList(readers, userListQuery(filters), userText),

    idOf: (username: string) => idsByUsername.get(username) as number | undefined,

    insert(username: string, fields: UserFields, now: number): number {
      holders.clear();
      return Number(insert.run({ username, ...params(fields), created_at: now }).lastInsertRowid);
    },

    update(id: number, fields: UserFields, updatedAt: number, deletedAt: number | null): void {
      holders.clear();
      update.run({ id, ...params(fields), updated_at: updatedAt, deleted_at: deletedAt });
    },

    replaceOrgRoles(userId: number, roleIds: readonly number[]): void {
      holders.clear();
      clearRoles.run(userId);
      for (const roleId of new Set(roleIds)) addRole.run(userId, roleId);
    },

    /** Deletes the user and revokes their tokens as of `now` (in a write transaction). */
    softDelete(id: number, now: number): boolean {
      holders.clear();
      const deleted = softDelete.run({ id, now }).changes === 1;
      waitPast(now);
      return deleted;
    },

    /** Sets a new password and revokes every token as of `now` (in a write transaction). */
    setPassword(id: number, hash: string, now: number): void {
      holders.clear();
      setPassword.run({ id, hash, now });
      waitPast(now);
    },

    /**
     * Revokes the user's tokens issued at or before `now`, except the one issued at
     * `kept` (in a write transaction, with the change that calls for it).
     */
    revokeTokens(id: number, now: number, kept: number | null): void {
      holders.clear();
      revokeTokens.run({ id, now, kept });
      waitPast(now);
    },
    /**
     * Ends the user's token issued at `issuedAt` (POST /v0/logout) until it expires, and
     * deletes a few sign-outs whose tokens have expired since (in a write transaction).
     */
    signOut(id: number, issuedAt: number, expiresAt: number, now: number): void {
      holders.clear();
      signOut.run(id, issuedAt, expiresAt);
      sweepSignedOut.run(now);
    },
    count: () => count.get() as number,
  };
}
