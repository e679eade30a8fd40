// SQL of idempotency keys (sql/010): a key is claimed before its request runs, its
// answer stored once known, or the claim given back when the request had no answer to
// keep. Every function runs inside a write transaction (the caller's).
import type { Db } from '../db/open';

/** How long a key is honoured after its first use. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Expired keys deleted per claim: more than one, so the table keeps shrinking. */
const SWEEP_BATCH = 32;

/** An answer as it is replayed: status, the JSON text sent, its own headers. */
export interface StoredAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** What claiming a key found. */
export type Claim =
  /** The key is new (or expired): the request runs; `at` names this claim. */
  | { kind: 'claimed'; at: number }
  /** The key was used for this same request: its answer. */
  | { kind: 'answered'; answer: StoredAnswer }
  /** The key was used for another request (another body, path or method). */
  | { kind: 'other request' }
  /** The first request with the key is still being answered. */
  | { kind: 'in progress' };

interface KeyRow {
  fingerprint: string;
  created_at: number;
  status: number | null;
  headers: string | null;
  body: string | null;
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

export function createIdempotencyStore(db: Db) {
  const find = db.prepare(`SELECT fingerprint, created_at, status, headers, body
    FROM idempotency_keys WHERE user_id = ? AND key = ?`);
  const insert = db.prepare(`INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at)
    VALUES (?, ?, ?, ?)`);
  const remove = db.prepare('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?');
  const sweep = db.prepare(`DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid
    FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ${SWEEP_BATCH})`);
  const answer = db.prepare(`UPDATE idempotency_keys SET status = @status, headers = @headers,
      body = @body
    WHERE user_id = @user AND key = @key AND created_at = @at AND status IS NULL`);
  const giveBack = db.prepare(`DELETE FROM idempotency_keys
    WHERE user_id = ? AND key = ? AND created_at = ? AND status IS NULL`);

  return {
    /** Claims `key` of the user for the request of `fingerprint`, or says why not. */
    claim(userId: number, key: string, fingerprint: string, now: number): Claim {
      sweep.run(now - KEY_LIFETIME_MS);
      const row = find.get(userId, key) as KeyRow | undefined;
      if (row && row.created_at > now - KEY_LIFETIME_MS) {
        if (row.fingerprint !== fingerprint) return { kind: 'other request' };
        if (row.status === null) return { kind: 'in progress' };
        const headers = JSON.parse(row.headers ?? '{}') as Record<string, string>;
        return { kind: 'answered', answer: { status: row.status, body: row.body ?? '', headers } };
      }
      if (row) remove.run(userId, key);
      insert.run(userId, key, fingerprint, now);
      return { kind: 'claimed', at: now };
    },

    /** Keeps the answer of the request that claimed `key` at `at`. */
    answer(userId: number, key: string, at: number, stored: StoredAnswer): void {
      answer.run({
        user: userId,
        key,
        at,
        status: stored.status,
        headers: JSON.stringify(stored.headers),
        body: stored.body,
      });
    },

    /** Gives the claim back: the next request with `key` runs afresh. */
    giveBack(userId: number, key: string, at: number): void {
      giveBack.run(userId, key, at);
    },
  };
}
