// Many time entries at once, written straight into a server's database file (the API
// would take minutes for tens of thousands): for tests of long lists.
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/db/open';

export interface BulkTimes {
  username: string;
  project: string;
  activity: string;
  count: number;
  /** Entry i's duration in seconds. */
  duration: (i: number) => number;
  /** Entry i's created_at in ms (its list order). */
  createdAt: (i: number) => number;
  /** Entry i's notes (none when absent). */
  notes?: (i: number) => string;
}

/** Inserts `count` live times of the user in the project (dates cycle over 1,000 days). */
export function insertTimes(dbFile: string, times: BulkTimes): void {
  const db = openDatabase(dbFile);
  try {
    const id = (sql: string, arg: string) => db.prepare(sql).pluck().get(arg) as number;
    const userId = id('SELECT id FROM users WHERE username = ?', times.username);
    const projectId = id('SELECT project_id FROM project_slugs WHERE slug = ?', times.project);
    const activityId = id('SELECT id FROM activities WHERE slug = ?', times.activity);
    const time = db.prepare(`INSERT INTO times (uuid, revision, duration, user_id, project_id,
      date_worked, created_at, notes) VALUES (?, 1, ?, ?, ?, ?, ?, ?)`);
    const link = db.prepare('INSERT INTO time_activities (time_id, activity_id) VALUES (?, ?)');
    const base = Date.UTC(2020, 0, 1);
    db.transaction(() => {
      for (let i = 0; i < times.count; i++) {
        const date = new Date(base + (i % 1000) * 86_400_000).toISOString().slice(0, 10);
        const row = time.run(
          randomUUID(),
          times.duration(i),
          userId,
          projectId,
          date,
          times.createdAt(i),
          times.notes?.(i) ?? null,
        );
        link.run(row.lastInsertRowid, activityId);
      }
    })();
  } finally {
    db.close();
  }
}
