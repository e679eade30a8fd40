// SQL of personal API tokens (sql/011_personal_tokens.sql): prepared once.
import type { Db } from '../db/open';

/** A token as stored, with its owner's username in its stored case. */
export interface TokenRow {
  id: number;
  user_id: number;
  username: string;
  name: string;
  scope: 'read' | 'write';
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface NewToken {
  user_id: number;
  name: string;
  scope: 'read' | 'write';
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
}

const COLUMNS = `t.id, t.user_id, u.username, t.name, t.scope, t.created_at, t.expires_at,
  t.last_used_at, t.revoked_at`;

export type TokenStore = ReturnType<typeof createTokenStore>;

export function createTokenStore(db: Db) {
  const bySecret = db.prepare(
    `SELECT ${COLUMNS} FROM personal_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.secret_hash = ?`,
  );
  const byId = db.prepare(
    `SELECT ${COLUMNS} FROM personal_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?`,
  );
  // Revoked tokens are not listed: they can never be used again.
  const ofUser = db.prepare(
    `SELECT ${COLUMNS} FROM personal_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.user_id = ? AND t.revoked_at IS NULL ORDER BY t.created_at, t.id`,
  );
  const nameTaken = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM personal_tokens
       WHERE user_id = ? AND name = ? COLLATE NOCASE AND revoked_at IS NULL)`,
    )
    .pluck();
  const liveCount = db
    .prepare(
      `SELECT count(*) FROM personal_tokens WHERE user_id = @user AND revoked_at IS NULL
       AND (expires_at IS NULL OR expires_at > @now)`,
    )
    .pluck();
  const insert = db.prepare(`INSERT INTO personal_tokens
      (user_id, name, scope, secret_hash, created_at, expires_at)
    VALUES (@user_id, @name, @scope, @secret_hash, @created_at, @expires_at)`);
  const revoke = db.prepare(
    'UPDATE personal_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  // Only ever forward: of two processes touching one token, the later minute stays.
  const touch = db.prepare(`UPDATE personal_tokens SET last_used_at = @minute
    WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @minute)`);

  return {
    findBySecret: (hash: string) => bySecret.get(hash) as TokenRow | undefined,
    find: (id: number) => byId.get(id) as TokenRow | undefined,
    listOf: (userId: number) => ofUser.all(userId) as TokenRow[],
    nameTaken: (userId: number, name: string) => nameTaken.get(userId, name) === 1,
    /** Unrevoked tokens that have not expired at `now`. */
    liveCount: (userId: number, now: number) => liveCount.get({ user: userId, now }) as number,
    insert: (token: NewToken) => Number(insert.run(token).lastInsertRowid),
    /** false when there is no such unrevoked token. */
    revoke: (id: number, now: number) => revoke.run(now, id).changes === 1,
    touch: (id: number, minute: number) => void touch.run({ id, minute }),
  };
}
