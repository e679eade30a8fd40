// Login throttling per username (SPEC §2.2): after `maxFailures` failed logins within
// `windowSeconds`, every attempt for that username is refused until the window passes.
// Kept in the database so that every process on the file sees the same count.
//
// Failures are also counted per client address (the connection's remote address, or
// with --trust-proxy the one the reverse proxy forwarded in X-Forwarded-For; behind a
// proxy without that setting every client shares the proxy's address): after `maxFailuresPerAddress` failures from one address within the window,
// whatever the usernames, every attempt from it is refused. Its rows are keyed
// `addr:<address>` in the same table (`:` is never part of a username). A successful
// login resets the username's count but only gives back its own attempt to the address:
// one known password must not let an address go on guessing at other accounts.
//
// An attempt is counted *before* its password is checked, in one write transaction with
// the check of the count: bcrypt takes ~70 ms, and counting only afterwards let parallel
// guesses all pass the check at once (30 parallel wrong logins were 30 guesses, not 10).
// A successful login then removes the count; an attempt that could not be decided
// (directory unreachable) is given back.
//
// Rows whose window has passed count for nothing and are deleted as attempts come in:
// each counted attempt looks at the next SWEEP_BATCH rows in key order (a cursor that
// wraps around) and deletes the expired ones, so the work per attempt is bounded and
// the table holds about the rows of the current window, not one row per name ever tried.
import { type Db, writeTransaction } from '../db/open';
import { isUsername } from '../identifiers';

export interface LoginThrottle {
  /**
   * Seconds until attempts are accepted again (0: go ahead — and the attempt has been
   * counted as a failure until `succeeded` or `undecided` says otherwise).
   */
  attempt(username: string, address?: string, now?: number): number;
  /** The username's count is reset; the address's attempt is given back. */
  succeeded(username: string, address?: string): void;
  undecided(username: string, address?: string): void;
}

/** Rows looked at (and deleted when expired) per counted attempt. */
export const SWEEP_BATCH = 32;

export function createLoginThrottle(
  db: Db,
  maxFailures: number,
  windowSeconds: number,
  maxFailuresPerAddress = 0,
): LoginThrottle {
  const windowMs = windowSeconds * 1000;
  const disabled = maxFailures === 0 || windowSeconds === 0;
  const addressDisabled = maxFailuresPerAddress === 0 || windowSeconds === 0;
  const get = db.prepare(
    'SELECT failures, window_started_at FROM login_failures WHERE username = ?',
  );
  const upsert = db.prepare(`INSERT INTO login_failures (username, failures, window_started_at)
    VALUES (@username, 1, @now)
    ON CONFLICT (username) DO UPDATE SET
      failures = CASE WHEN @now - window_started_at < @window THEN failures + 1 ELSE 1 END,
      window_started_at = CASE WHEN @now - window_started_at < @window THEN window_started_at ELSE @now END`);
  const giveBack = db.prepare(
    'UPDATE login_failures SET failures = failures - 1 WHERE username = ? AND failures > 0',
  );
  const remove = db.prepare('DELETE FROM login_failures WHERE username = ?');
  // The primary key's own order (NOCASE), so this is a range read of the key.
  const nextBatch = db.prepare(`SELECT username, window_started_at FROM login_failures
    WHERE username > ? ORDER BY username LIMIT ${SWEEP_BATCH}`);
  const removeExpired = db.prepare(
    'DELETE FROM login_failures WHERE username = ? AND window_started_at <= ?',
  );
  let cursor = '';
  /** Deletes the expired rows among the next SWEEP_BATCH; runs inside the write transaction. */
  const sweep = (now: number) => {
    const rows = nextBatch.all(cursor) as { username: string; window_started_at: number }[];
    for (const row of rows) {
      if (row.window_started_at + windowMs <= now) removeExpired.run(row.username, now - windowMs);
    }
    cursor = rows.length === SWEEP_BATCH ? (rows[rows.length - 1]?.username ?? '') : '';
  };
  // A name that breaks the username rule can never exist (the rule is public), so not
  // counting it reveals nothing — and keeps 1 MiB "usernames" out of the database. Its
  // address is counted all the same: its password is still checked (against the dummy hash).
  const counted = (username: string) => !disabled && isUsername(username);
  /** The rows an attempt counts on, with their limits. */
  const counters = (username: string, address: string | undefined) => {
    const keys: [key: string, max: number][] = [];
    if (counted(username)) keys.push([username, maxFailures]);
    if (address && !addressDisabled) keys.push([`addr:${address}`, maxFailuresPerAddress]);
    return keys;
  };

  return {
    attempt(username, address, now = Date.now()) {
      const keys = counters(username, address);
      if (keys.length === 0) return 0;
      return writeTransaction(db, () => {
        let wait = 0;
        for (const [key, max] of keys) {
          const row = get.get(key) as { failures: number; window_started_at: number } | undefined;
          const left = row ? row.window_started_at + windowMs - now : 0;
          if (row && row.failures >= max && left > 0) wait = Math.max(wait, Math.ceil(left / 1000));
        }
        if (wait > 0) return wait;
        for (const [key] of keys) upsert.run({ username: key, now, window: windowMs });
        sweep(now);
        return 0;
      });
    },
    succeeded(username, address) {
      const keys = counters(username, address);
      if (keys.length === 0) return;
      writeTransaction(db, () => {
        for (const [key] of keys) (key === username ? remove : giveBack).run(key);
      });
    },
    undecided(username, address) {
      const keys = counters(username, address);
      if (keys.length === 0) return;
      writeTransaction(db, () => {
        for (const [key] of keys) giveBack.run(key);
      });
    },
  };
}
