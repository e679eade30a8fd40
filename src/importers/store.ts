// SQL of imports: the source keys of imported entries (sql/015, written only here), and
// what an import matches against, read once at its start (users, live projects and
// activities, memberships: hundreds of rows, not millions).
import type { Db } from '../db/open';

export interface KnownUser {
  id: number;
  username: string;
  display_name: string | null;
  email: string | null;
  /** The user's IANA zone (issue 31 §1), if they chose one. */
  timezone: string | null;
}

export interface KnownProject {
  id: number;
  name: string;
  /** null also when the default activity has been deleted since */
  default_activity_id: number | null;
}

export interface KnownActivity {
  id: number;
  name: string;
  slug: string;
}

export type ImportStore = ReturnType<typeof createImportStore>;

export function createImportStore(db: Db) {
  const users = db.prepare(`SELECT id, username, display_name, email, timezone
    FROM users WHERE deleted_at IS NULL ORDER BY id`);
  const projects = db.prepare(`SELECT p.id, p.name, da.id AS default_activity_id FROM projects p
    LEFT JOIN activities da ON da.id = p.default_activity_id AND da.deleted_at IS NULL
    WHERE p.deleted_at IS NULL ORDER BY p.id`);
  const activities = db.prepare(
    'SELECT id, name, slug FROM activities WHERE deleted_at IS NULL ORDER BY id',
  );
  const members = db
    .prepare('SELECT project_id, user_id FROM project_users WHERE member = 1')
    .raw();
  const liveProjectSlug = db
    .prepare('SELECT EXISTS (SELECT 1 FROM project_slugs WHERE slug = ? AND live = 1)')
    .pluck();
  const liveActivitySlug = db
    .prepare('SELECT EXISTS (SELECT 1 FROM activities WHERE slug = ? AND deleted_at IS NULL)')
    .pluck();
  const source = db.prepare('SELECT time_id FROM import_sources WHERE key = ?').pluck();
  const addSource = db.prepare('INSERT INTO import_sources (key, time_id) VALUES (?, ?)');
  const lastTimeId = db.prepare('SELECT coalesce(max(id), 0) FROM times').pluck();
  const anySource = db.prepare('SELECT EXISTS (SELECT 1 FROM import_sources)').pluck();

  return {
    users: () => users.all() as KnownUser[],
    projects: () => projects.all() as KnownProject[],
    activities: () => activities.all() as KnownActivity[],
    /** [project_id, user_id] of every membership. */
    members: () => members.all() as [number, number][],
    isProjectSlugTaken: (slug: string) => liveProjectSlug.get(slug) === 1,
    isActivitySlugTaken: (slug: string) => liveActivitySlug.get(slug) === 1,
    /** The entry an earlier import made from the row with this key. */
    timeOfSource: (key: string) => source.get(key) as number | undefined,
    addSource: (key: string, timeId: number) => {
      addSource.run(key, timeId);
    },
    /** Whether any entry was imported before (else no row can have been). */
    anySource: () => anySource.get() === 1,
    /** The highest time id: entries above it were made by this import. */
    lastTimeId: () => lastTimeId.get() as number,
  };
}
