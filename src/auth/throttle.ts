// Login throttling per username (SPEC §2.2): after `maxFailures` failed logins within
// `windowSeconds`, every attempt for that username is refused until the window passes.
// Kept in the database so that every process on the file sees the same count.
//
// An attempt is counted *before* its password is checked, in one write transaction with
// the check of the count: bcrypt takes ~70 ms, and counting only afterwards let parallel
// guesses all pass the check at once (30 parallel wrong logins were 30 guesses, not 10).
// A successful login then removes the count; an attempt that could not be decided
// (directory unreachable) is given back.
import { type Db, writeTransaction } from '../db/open';
import { isUsername } from '../identifiers';

export interface LoginThrottle {
  /**
   * Seconds until attempts are accepted again (0: go ahead — and the attempt has been
   * counted as a failure until `succeeded` or `undecided` says otherwise).
   */
  attempt(username: string, now?: number): number;
  succeeded(username: string): void;
  undecided(username: string): void;
}

export function createLoginThrottle(
  db: Db,
  maxFailures: number,
  windowSeconds: number,
): LoginThrottle {
  const windowMs = windowSeconds * 1000;
  const disabled = maxFailures === 0 || windowSeconds === 0;
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
  // A name that breaks the username rule can never exist (the rule is public), so not
  // counting it reveals nothing — and keeps 1 MiB "usernames" out of the database.
  const counted = (username: string) => !disabled && isUsername(username);

  return {
    attempt(username, now = Date.now()) {
      if (!counted(username)) return 0;
      return writeTransaction(db, () => {
        const row = get.get(username) as
          | { failures: number; window_started_at: number }
          | undefined;
        const left = row ? row.window_started_at + windowMs - now : 0;
        if (row && row.failures >= maxFailures && left > 0) return Math.ceil(left / 1000);
        upsert.run({ username, now, window: windowMs });
        return 0;
      });
    },
    succeeded(username) {
      if (counted(username)) writeTransaction(db, () => remove.run(username));
    },
    undecided(username) {
      if (counted(username)) writeTransaction(db, () => giveBack.run(username));
    },
  };
}
