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

export interface SpreadTimes {
  usernames: readonly string[];
  /** Project slugs. */
  projects: readonly string[];
  /** Activity slugs (at least two). */
  activities: readonly string[];
  count: number;
  /** The first day, YYYY-MM-DD, and how many days the entries spread over. */
  start: string;
  days: number;
}

/**
 * Inserts `count` live times spread evenly over the users, the projects and the days,
 * each with one activity or (every third) two: the same entries for the same arguments.
 */
export function insertSpreadTimes(dbFile: string, times: SpreadTimes): void {
  const db = openDatabase(dbFile);
  try {
    const ids = (sql: string, names: readonly string[]) =>
      names.map((name) => db.prepare(sql).pluck().get(name) as number);
    const users = ids('SELECT id FROM users WHERE username = ?', times.usernames);
    const projects = ids('SELECT project_id FROM project_slugs WHERE slug = ?', times.projects);
    const activities = ids('SELECT id FROM activities WHERE slug = ?', times.activities);
    const time = db.prepare(`INSERT INTO times (uuid, revision, duration, user_id, project_id,
      date_worked, created_at) VALUES (?, 1, ?, ?, ?, ?, ?)`);
    const link = db.prepare('INSERT INTO time_activities (time_id, activity_id) VALUES (?, ?)');
    const first = Date.parse(`${times.start}T00:00:00Z`);
    const [u, p, a] = [users.length, projects.length, activities.length];
    db.transaction(() => {
      for (let i = 0; i < times.count; i++) {
        const user = i % u;
        const j = Math.floor(i / u); // the user's j-th entry
        // 7,919 is prime: a user's consecutive entries land on days far apart, every day
        // as often; each time round the days, their entries take the next activity.
        const day = (j * 7919) % times.days;
        const activity = Math.floor(j / times.days) % a;
        const date = new Date(first + day * 86_400_000).toISOString().slice(0, 10);
        const row = time.run(
          randomUUID(),
          60 * (1 + (i % 480)),
          users[user],
          projects[j % p],
          date,
          first + i,
        );
        link.run(row.lastInsertRowid, activities[activity]);
        if (i % 3 === 0) {
          link.run(row.lastInsertRowid, activities[(activity + 1 + (j % (a - 1))) % a]);
        }
      }
    })();
  } finally {
    db.close();
  }
}
