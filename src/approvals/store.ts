// SQL of week parts (issue 32): their status rows, the history of decisions, the lock
// date, and the parts as the API shows them, summed from the entries. A part's entries
// are the live times of its user and project whose ISO week (SQLite's strftime('%G-W%V'))
// is its week; a part with entries and no row is `open`.
import type { Db } from '../db/open';
import { statementCache } from '../db/open';
import type { WeekPartStatus } from '../shapes/approval';
import { type TimeListFilters, timeWhere } from '../times/store';

/** A week part as read, before json.ts shapes it. */
export interface WeekPartRow {
  user: string;
  project: string; // JSON array of slugs
  week: string;
  status: WeekPartStatus;
  duration: number;
  entries: number;
  submitted_at: number | null;
  decided_by: string | null;
  decided_at: number | null;
  comment: string | null;
}

export interface DecisionRow {
  action: 'submit' | 'approve' | 'reject' | 'reopen';
  by: string;
  at: number;
  comment: string | null;
}

/** The parts of the entries `g` (user_id, project_id, week, duration, entries), shown. */
const PART_COLUMNS = `SELECT u.username AS user, psl.json AS project, g.week,
    coalesce(wp.status, 'open') AS status, g.duration, g.entries, wp.submitted_at,
    du.username AS decided_by, wp.decided_at, wp.comment`;
const PART_JOINS = `JOIN users u ON u.id = g.user_id
  JOIN project_slug_lists psl ON psl.project_id = g.project_id
  LEFT JOIN week_parts wp ON wp.user_id = g.user_id AND wp.project_id = g.project_id
    AND wp.week = g.week
  LEFT JOIN users du ON du.id = wp.decided_by`;

/** What `status=` of GET /v0/approvals keeps, as SQL over `wp` (a part with no row is open). */
const STATUS_WHERE: Record<WeekPartStatus, string> = {
  open: "(wp.status IS NULL OR wp.status = 'open')",
  submitted: "wp.status = 'submitted'",
  approved: "wp.status = 'approved'",
  rejected: "wp.status = 'rejected'",
};

export type ApprovalStore = ReturnType<typeof createApprovalStore>;

export function createApprovalStore(db: Db) {
  const sql = statementCache(db);
  // One part: its user's live entries of the week on the project (times_user_date).
  const part = db.prepare(`${PART_COLUMNS}
    FROM (SELECT ? AS user_id, ? AS project_id, ? AS week,
        coalesce(sum(duration), 0) AS duration, count(*) AS entries FROM times
      WHERE user_id = ? AND project_id = ? AND date_worked BETWEEN ? AND ?
        AND deleted_at IS NULL) g
    ${PART_JOINS}`);
  const weekProjects = db
    .prepare(`SELECT DISTINCT project_id FROM times
      WHERE user_id = ? AND date_worked BETWEEN ? AND ? AND deleted_at IS NULL`)
    .pluck();
  const statusOf = db
    .prepare('SELECT status FROM week_parts WHERE user_id = ? AND project_id = ? AND week = ?')
    .pluck();
  const submit = db.prepare(`INSERT INTO week_parts (user_id, project_id, week, status,
      submitted_at) VALUES (?, ?, ?, 'submitted', ?)
    ON CONFLICT (user_id, project_id, week) DO UPDATE SET status = 'submitted',
      submitted_at = excluded.submitted_at, decided_by = NULL, decided_at = NULL, comment = NULL`);
  const decide = db.prepare(`UPDATE week_parts SET status = ?, decided_by = ?, decided_at = ?,
      comment = ? WHERE user_id = ? AND project_id = ? AND week = ?`);
  const record = db.prepare(`INSERT INTO week_part_decisions (user_id, project_id, week,
      action, by_id, at, comment) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const history = db.prepare(`SELECT d.action, u.username AS by, d.at, d.comment
    FROM week_part_decisions d JOIN users u ON u.id = d.by_id
    WHERE d.user_id = ? AND d.project_id = ? AND d.week = ? ORDER BY d.id DESC`);
  // The parts of one status that have a row, for a viewer (week_parts_status): read from
  // the rows, not by grouping every entry, so the pending count stays cheap on any instance.
  const byStatus = db.prepare(`SELECT wp.user_id, wp.project_id, wp.week FROM week_parts wp
    WHERE wp.status = @status AND wp.week >= @first AND wp.week <= @last
      AND (@users IS NULL OR wp.user_id IN (SELECT value FROM json_each(@users)))
      AND (@projects IS NULL OR wp.project_id IN (SELECT value FROM json_each(@projects)))
      AND (@seesAll = 1 OR wp.user_id = @viewer OR EXISTS (SELECT 1 FROM project_users pu
        WHERE pu.project_id = wp.project_id AND pu.user_id = @viewer
          AND (pu.manager = 1 OR pu.spectator = 1)))`);
  const lockDate = db.prepare('SELECT before FROM lock_date WHERE id = 1').pluck();
  const setLock = db.prepare('INSERT OR REPLACE INTO lock_date (id, before) VALUES (1, ?)');
  const clearLock = db.prepare('DELETE FROM lock_date');

  return {
    /** One part (its dates: the week's Monday and Sunday), with or without entries. */
    part(userId: number, projectId: number, week: string, first: string, last: string) {
      return part.get(userId, projectId, week, userId, projectId, first, last) as WeekPartRow;
    },

    /** The projects a user has live entries on between two dates. */
    projectsWithEntries: (userId: number, first: string, last: string) =>
      weekProjects.all(userId, first, last) as number[],

    statusOf: (userId: number, projectId: number, week: string) =>
      statusOf.get(userId, projectId, week) as WeekPartStatus | undefined,

    /** Marks a part submitted (its last decision forgotten; the history keeps it). */
    submit(userId: number, projectId: number, week: string, byId: number, at: number) {
      submit.run(userId, projectId, week, at);
      record.run(userId, projectId, week, 'submit', byId, at, null);
    },

    /** An approve, reject or reopen of a part that has a row. */
    decide(
      key: { userId: number; projectId: number; week: string },
      action: 'approve' | 'reject' | 'reopen',
      status: WeekPartStatus,
      byId: number,
      at: number,
      comment: string | null,
    ) {
      decide.run(status, byId, at, comment, key.userId, key.projectId, key.week);
      record.run(key.userId, key.projectId, key.week, action, byId, at, comment);
    },

    history: (userId: number, projectId: number, week: string) =>
      history.all(userId, projectId, week) as DecisionRow[],

    /**
     * The parts of the entries GET /times would list with these filters (visibility
     * included), optionally of one status, by week, then user, then project.
     */
    parts(filters: TimeListFilters, status: WeekPartStatus | undefined): WeekPartRow[] {
      const where = timeWhere({ ...filters, status: undefined, includeDeleted: false });
      const text = `${PART_COLUMNS}
        FROM (SELECT t.user_id, t.project_id, strftime('%G-W%V', t.date_worked) AS week,
            sum(t.duration) AS duration, count(*) AS entries
          FROM ${where.from} ${where.clause} GROUP BY t.user_id, t.project_id, week) g
        ${PART_JOINS}
        ${status === undefined ? '' : `WHERE ${STATUS_WHERE[status]}`}
        ORDER BY g.week, u.username, psl.json`;
      return sql(text).all(...where.params) as WeekPartRow[];
    },

    /**
     * The keys of the parts of a status other than open (they all have a row), with the
     * list's user and project filters and visibility, between two weeks (inclusive).
     */
    keysWithStatus(
      filters: TimeListFilters,
      status: WeekPartStatus,
      weeks: { first: string; last: string },
    ) {
      return byStatus.all({
        status,
        ...weeks,
        users: filters.userIds.length > 0 ? JSON.stringify(filters.userIds) : null,
        projects: filters.projectIds.length > 0 ? JSON.stringify(filters.projectIds) : null,
        seesAll: filters.viewer.seesAll ? 1 : 0,
        viewer: filters.viewer.id,
      }) as { user_id: number; project_id: number; week: string }[];
    },

    lockDate: () => (lockDate.get() as string | undefined) ?? null,

    setLockDate(before: string | null) {
      if (before === null) clearLock.run();
      else setLock.run(before);
    },
  };
}
