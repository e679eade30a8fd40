// How long a running timer has run, set in the database: the server's clock is the real
// one, so a test that needs a timer of 89 seconds moves its start 89 seconds back rather
// than waiting (the browser's own clock is page.clock's).
import Database from 'better-sqlite3';

/** Makes `username`'s running timer look started `seconds` ago. */
export function timerRunFor(dbFile: string, username: string, seconds: number): void {
  const db = new Database(dbFile);
  try {
    db.pragma('busy_timeout = 5000');
    const { changes } = db
      .prepare(`UPDATE timers SET started_at = ?
        WHERE user_id = (SELECT id FROM users WHERE lower(username) = lower(?))`)
      .run(Date.now() - seconds * 1000, username);
    if (changes !== 1) throw new Error(`${username} has no running timer`);
  } finally {
    db.close();
  }
}

const DAY_MS = 86_400_000;

/**
 * Waits, only when the UTC day turns less than `marginMs` before or after now, until it is
 * `marginMs` past that midnight: a test that books "today" and runs the page's clock
 * 125 s forward (or starts it that far back) then finds one day on the server and in the
 * page from its start to its end.
 */
export async function clearOfMidnight(marginMs = 150_000): Promise<void> {
  const intoDay = Date.now() % DAY_MS;
  const wait =
    intoDay < marginMs
      ? marginMs - intoDay
      : DAY_MS - intoDay < marginMs
        ? DAY_MS - intoDay + marginMs
        : 0;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
