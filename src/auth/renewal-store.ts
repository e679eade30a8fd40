// SQL of token renewals (sql/016): the sign-in a renewed token descends from.
import type { Db } from '../db/open';

/** Expired rows deleted per renewal, so a renewal never waits on a long sweep. */
const SWEEP = 100;

export function createRenewalStore(db: Db) {
  const signedInAt = db
    .prepare('SELECT signed_in_at FROM renewed_tokens WHERE user_id = ? AND issued_at = ?')
    .pluck();
  const record = db.prepare(`INSERT INTO renewed_tokens (user_id, issued_at, signed_in_at,
      expires_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (user_id, issued_at) DO UPDATE SET signed_in_at = min(signed_in_at,
      excluded.signed_in_at), expires_at = max(expires_at, excluded.expires_at)`);
  const sweep = db.prepare(`DELETE FROM renewed_tokens
    WHERE (user_id, issued_at) IN (SELECT user_id, issued_at FROM renewed_tokens
      WHERE expires_at <= ? ORDER BY expires_at LIMIT ${SWEEP})`);
  return {
    /** When the sign-in of the token (user, iat) was, if it is a renewed one. */
    signedInAt: (userId: number, issuedAt: number) =>
      signedInAt.get(userId, issuedAt) as number | undefined,
    record(userId: number, issuedAt: number, signedIn: number, expiresAt: number, now: number) {
      record.run(userId, issuedAt, signedIn, expiresAt);
      sweep.run(now);
    },
  };
}

export type RenewalStore = ReturnType<typeof createRenewalStore>;
