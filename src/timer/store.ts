// SQL of running timers (sql/003_timers.sql): one row per user, read with the names the
// API shows (project slugs, activity slugs) and whether its references are still live.
import type { Db } from '../db/open';
import { projectSlugsSql } from '../projects/store';
import { activityIdsSql, activityIdsText } from '../times/store';

/** The columns a timer is written with. */
export interface NewTimer {
  user_id: number;
  project_id: number;
  /** JSON array of activity ids; [] = the project's default activity at stop */
  activity_ids: string;
  notes: string | null;
  issue_uri: string | null;
  date_worked: string;
  started_at: number;
}

export interface StoredTimer extends NewTimer {
  /** JSON array of all the project's slugs, as a time shows its project */
  project: string;
  /** JSON array of the activities' slugs, sorted, as a time shows them */
  activities: string;
  /** 1 while the project is not deleted */
  project_live: number;
  /** 1 while none of the activities is deleted */
  activities_live: number;
}

export type TimerStore = ReturnType<typeof createTimerStore>;

export function createTimerStore(db: Db) {
  const byUser = db.prepare(`SELECT tm.user_id, tm.project_id, tm.activity_ids, tm.notes,
      tm.issue_uri, tm.date_worked, tm.started_at,
      json(${projectSlugsSql('tm.project_id')}) AS project,
      (SELECT json_group_array(a.slug ORDER BY a.slug) FROM activities a
        WHERE a.id IN (SELECT value FROM json_each(tm.activity_ids))) AS activities,
      EXISTS (SELECT 1 FROM projects p WHERE p.id = tm.project_id AND p.deleted_at IS NULL)
        AS project_live,
      NOT EXISTS (SELECT 1 FROM json_each(tm.activity_ids) j
        LEFT JOIN activities a ON a.id = j.value
        WHERE a.id IS NULL OR a.deleted_at IS NOT NULL) AS activities_live
    FROM timers tm WHERE tm.user_id = ?`);
  const insert = db.prepare(`INSERT INTO timers (user_id, project_id, activity_ids, notes,
      issue_uri, date_worked, started_at)
    VALUES (@user_id, @project_id, @activity_ids, @notes, @issue_uri, @date_worked, @started_at)`);
  const remove = db.prepare('DELETE FROM timers WHERE user_id = ?');
  const zoneOf = db.prepare('SELECT timezone FROM users WHERE id = ?').pluck();
  // A timesheet row's live entries of one day: same user, project, date and exactly the
  // same set of activities (ids compared as one sorted JSON array). Two are enough to know
  // there is not exactly one.
  const rowEntries = db.prepare(`SELECT t.uuid, t.duration FROM times t
      WHERE t.user_id = ? AND t.date_worked = ? AND t.project_id = ? AND t.deleted_at IS NULL
        AND ${activityIdsSql('t.id')} = ?
      LIMIT 2`);

  return {
    find: (userId: number) => byUser.get(userId) as StoredTimer | undefined,
    insert: (timer: NewTimer) => void insert.run(timer),
    /** The user's time zone (issue 31): an IANA name, or null for the server's. */
    zoneOf: (userId: number) => (zoneOf.get(userId) as string | null | undefined) ?? null,
    /** Up to two of the user's live entries of that project, activity set and day. */
    rowEntries: (userId: number, date: string, projectId: number, activityIds: number[]) =>
      rowEntries.all(userId, date, projectId, activityIdsText(activityIds)) as {
        uuid: string;
        duration: number;
      }[],
    /** Deletes the user's timer; false when there was none. */
    remove: (userId: number) => remove.run(userId).changes === 1,
  };
}
