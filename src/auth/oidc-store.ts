// The two short-lived tables of OpenID Connect sign-in (sql/012): sign-ins under way and
// the one-time codes of finished ones. Each row is taken at most once (DELETE … RETURNING
// in one statement: of two requests with the same id or code, in one process or two,
// only one gets the row), and rows past their time are deleted as new ones come in.
import { createHash } from 'node:crypto';
import { type Db, writeTransaction } from '../db/open';

/** Expired rows deleted per new row: the work per sign-in stays bounded. */
const SWEEP = 32;
/**
 * Sign-ins one client address may have under way; a new one beyond them replaces its
 * oldest. Enough for an office behind one NAT address signing in at the same moment.
 */
export const SIGN_INS_PER_CLIENT = 50;

export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type OidcStore = ReturnType<typeof createOidcStore>;

export function createOidcStore(db: Db) {
  const insertSignIn = db.prepare(`INSERT INTO oidc_sign_ins
      (id_hash, state, nonce, verifier, redirect_uri, client, expires_at)
    VALUES (@idHash, @state, @nonce, @verifier, @redirectUri, @client, @expiresAt)`);
  const trimClient = db.prepare(`DELETE FROM oidc_sign_ins WHERE id_hash IN
    (SELECT id_hash FROM oidc_sign_ins WHERE client = ?
      ORDER BY expires_at DESC LIMIT -1 OFFSET ${SIGN_INS_PER_CLIENT - 1})`);
  const takeSignIn = db.prepare(`DELETE FROM oidc_sign_ins WHERE id_hash = ?
    RETURNING state, nonce, verifier, redirect_uri AS redirectUri, expires_at AS expiresAt`);
  const sweepSignIns = db.prepare(`DELETE FROM oidc_sign_ins WHERE id_hash IN
    (SELECT id_hash FROM oidc_sign_ins WHERE expires_at <= ? ORDER BY expires_at LIMIT ${SWEEP})`);
  const insertCode = db.prepare(
    'INSERT INTO oidc_codes (code_hash, user_id, expires_at) VALUES (?, ?, ?)',
  );
  const takeCode = db.prepare(`DELETE FROM oidc_codes WHERE code_hash = ?
    RETURNING user_id AS userId, expires_at AS expiresAt`);
  const sweepCodes = db.prepare(`DELETE FROM oidc_codes WHERE code_hash IN
    (SELECT code_hash FROM oidc_codes WHERE expires_at <= ? ORDER BY expires_at LIMIT ${SWEEP})`);
  const activeUsername = db
    .prepare('SELECT username FROM users WHERE id = ? AND active = 1 AND deleted_at IS NULL')
    .pluck();

  return {
    /**
     * Keeps a sign-in under way, found later by the browser's `id` until `expiresAt`;
     * `client` (the address) loses its oldest beyond SIGN_INS_PER_CLIENT.
     */
    saveSignIn(id: string, pending: PendingSignIn, client: string, expiresAt: number): void {
      writeTransaction(db, () => {
        sweepSignIns.run(Date.now());
        trimClient.run(client);
        insertSignIn.run({ idHash: sha256(id), ...pending, client, expiresAt });
      });
    },

    /** The sign-in the browser's `id` names, once; undefined when unknown or too old. */
    takeSignIn(id: string, now = Date.now()): PendingSignIn | undefined {
      const row = writeTransaction(db, () => takeSignIn.get(sha256(id))) as
        | (PendingSignIn & { expiresAt: number })
        | undefined;
      if (!row || row.expiresAt <= now) return undefined;
      const { expiresAt: _, ...pending } = row;
      return pending;
    },

    saveCode(code: string, userId: number, expiresAt: number): void {
      writeTransaction(db, () => {
        sweepCodes.run(Date.now());
        insertCode.run(sha256(code), userId, expiresAt);
      });
    },

    /** The active user a code names, once; undefined when unknown, used or too old. */
    takeCode(code: string, now = Date.now()): string | undefined {
      return writeTransaction(db, () => {
        const row = takeCode.get(sha256(code)) as { userId: number; expiresAt: number } | undefined;
        if (!row || row.expiresAt <= now) return undefined;
        return activeUsername.get(row.userId) as string | undefined;
      });
    },
  };
}
