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
