// Login throttling per username (SPEC §2.2): after `maxFailures` failed logins within
// `windowSeconds`, every attempt for that username is refused until the window passes.
// Kept in the database so that every process on the file sees the same count.
import type { Db } from '../db/open';

export interface LoginThrottle {
  /** Seconds until attempts are accepted again; 0 when not blocked. */
  blockedFor(username: string, now?: number): number;
  recordFailure(username: string, now?: number): void;
  reset(username: string): void;
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
  const remove = db.prepare('DELETE FROM login_failures WHERE username = ?');
  return {
    blockedFor(username, now = Date.now()) {
      if (disabled) return 0;
      const row = get.get(username) as { failures: number; window_started_at: number } | undefined;
      if (!row || row.failures < maxFailures) return 0;
      const left = row.window_started_at + windowMs - now;
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    recordFailure(username, now = Date.now()) {
      if (!disabled) upsert.run({ username, now, window: windowMs });
    },
    reset(username) {
      if (!disabled) remove.run(username);
    },
  };
}
