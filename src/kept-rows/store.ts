// SQL of kept timesheet rows (issue 34, sql/017). A kept row is shown only while its
// project and activities are live and it has no live entry of its user in its week: an
// entry of the same project with exactly the same set of activities (compared as the
// ascending JSON array of ids that `activity_ids` holds).
import type { Db } from '../db/open';
import { activityIdsSql } from '../times/store';

/** A kept row as the API shows it, before json parsing. */
export interface KeptRowRow {
  project: string; // JSON array of the project's slugs
  activities: string; // JSON array of activity slugs
}

/** The ids of a row: its project, and its activities as stored (ascending JSON array). */
export interface KeptRowIds {
  projectId: number;
  activityIds: string;
}

/** Whether row `k` has an entry of its user dated @first to @last. */
const HAS_ENTRY = `EXISTS (SELECT 1 FROM times t
  WHERE t.user_id = k.user_id AND t.project_id = k.project_id
    AND t.date_worked BETWEEN @first AND @last AND t.deleted_at IS NULL
    AND ${activityIdsSql('t.id')} = k.activity_ids)`;

const SHOWN = `JOIN projects p ON p.id = k.project_id AND p.deleted_at IS NULL
  WHERE NOT EXISTS (SELECT 1 FROM json_each(k.activity_ids) j
      JOIN activities a ON a.id = j.value WHERE a.deleted_at IS NOT NULL)
    AND NOT ${HAS_ENTRY}`;

export type KeptRowStore = ReturnType<typeof createKeptRowStore>;

export function createKeptRowStore(db: Db) {
  const list = db.prepare(`SELECT psl.json AS project,
      (SELECT json_group_array(slug) FROM (SELECT a.slug FROM json_each(k.activity_ids) j
        JOIN activities a ON a.id = j.value ORDER BY a.slug)) AS activities
    FROM (SELECT * FROM kept_rows WHERE user_id = @user AND week = @week) k
    JOIN project_slug_lists psl ON psl.project_id = k.project_id
    ${SHOWN}
    ORDER BY k.position`);
  const clear = db.prepare('DELETE FROM kept_rows WHERE user_id = ? AND week = ?');
  const insert = db.prepare(`INSERT INTO kept_rows (user_id, week, position, project_id,
      activity_ids) VALUES (?, ?, ?, ?, ?)`);
  // The rows just kept that have an entry: one statement for the whole list (a position
  // left empty is harmless, only the order of positions is read).
  const dropFilled = db.prepare(`DELETE FROM kept_rows AS k
    WHERE k.user_id = @user AND k.week = @week AND ${HAS_ENTRY}`);

  return {
    /** The rows shown for a user's week (@first to @last its dates), in added order. */
    list: (user: number, week: string, first: string, last: string) =>
      list.all({ user, week, first, last }) as KeptRowRow[],

    /**
     * Replaces what is kept for a user's week (@first to @last its dates) with `rows`, but
     * for those that have an entry in it.
     */
    replace(user: number, week: string, first: string, last: string, rows: readonly KeptRowIds[]) {
      clear.run(user, week);
      for (const [position, row] of rows.entries()) {
        insert.run(user, week, position, row.projectId, row.activityIds);
      }
      dropFilled.run({ user, week, first, last });
    },
  };
}
