// SQL of activities: the current row in `activities`, earlier revisions in
// `activity_revisions` (SPEC §5).
import { randomUUID } from 'node:crypto';
import { readList } from '../db/list-reader';
import type { Db } from '../db/open';
import type { ReaderPool } from '../db/readers';
import { columnsSql, jsonObjectSql } from '../db/sql-json';
import { usernameSql } from '../users/store';
import {
  ACTIVITY_REVISION_SQL,
  type ActivityHistoryRow,
  type ActivityRow,
  activityChangeSql,
  activityText,
  type LiveActivityRow,
  NO_SLUG,
  shownSlugSql,
} from './json';

/** SQL: whether a stored activity slug is one (NO_SLUG is not), for other resources' SQL. */
export const hasSlugSql = (column: string) => `${column} <> '${NO_SLUG}'`;

/** Each column of an ActivityRow (but its parents), typed so none can be forgotten. */
const COLUMNS = columnsSql<Omit<ActivityRow, 'parents'>>({
  id: 'a.id',
  uuid: 'a.uuid',
  revision: 'a.revision',
  name: 'a.name',
  slug: shownSlugSql('a.slug'),
  created_at: 'a.created_at',
  updated_at: 'a.updated_at',
  deleted_at: 'a.deleted_at',
});

/** Every earlier revision of `a` as one JSON array, newest first (no N+1 in lists). */
const PARENTS = `(SELECT json_group_array(${jsonObjectSql(ACTIVITY_REVISION_SQL)}
    ORDER BY r.revision DESC)
  FROM activity_revisions r WHERE r.activity_id = a.id) AS parents`;

const columns = (withParents: boolean) => (withParents ? `${COLUMNS}, ${PARENTS}` : COLUMNS);

/** An activity with what its history shows (ActivityHistoryRow), by uuid, deleted or not. */
const HISTORY_BY_UUID = `SELECT ${COLUMNS}, ${usernameSql('a.changed_by')} AS changed_by,
    (SELECT json_group_array(${jsonObjectSql(activityChangeSql(usernameSql))}
      ORDER BY r.revision DESC) FROM activity_revisions r WHERE r.activity_id = a.id) AS parents
  FROM activities a WHERE a.uuid = ?`;

/** Lists are ordered by last change, then uuid (SPEC §6). */
const ORDER = 'ORDER BY coalesce(a.updated_at, a.created_at), a.uuid';

export interface ActivityListFilters {
  includeDeleted: boolean;
  includeRevisions: boolean;
}

/** The list query of GET /activities. */
function activityListQuery(filters: ActivityListFilters) {
  const clause = filters.includeDeleted ? '' : 'WHERE a.deleted_at IS NULL';
  return {
    countSql: `SELECT count(*) FROM activities a ${clause}`,
    pageSql: `SELECT ${columns(filters.includeRevisions)} FROM activities a ${clause} ${ORDER}
      LIMIT ? OFFSET ?`,
    params: [],
  };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;

export function createActivityStore(db: Db, readers: ReaderPool) {
  const liveBySlug = (withParents: boolean) =>
    db.prepare(
      `SELECT ${columns(withParents)} FROM activities a WHERE a.slug = ? AND a.deleted_at IS NULL`,
    );
  const bySlug = liveBySlug(false);
  const bySlugWithParents = liveBySlug(true);
  const byUuid = db.prepare(`SELECT ${COLUMNS} FROM activities a WHERE a.uuid = ?`);
  const historyByUuid = db.prepare(HISTORY_BY_UUID);
  const liveIdsBySlug = db
    .prepare('SELECT id FROM activities WHERE slug = ? AND deleted_at IS NULL')
    .pluck();
  const insert = db.prepare(`INSERT INTO activities (uuid, revision, name, slug, created_at,
      changed_by) VALUES (?, 1, ?, ?, ?, ?)`);
  const archive = db.prepare(`INSERT INTO activity_revisions (activity_id, revision, name, slug,
      created_at, updated_at, deleted_at, changed_by)
    SELECT id, revision, name, slug, created_at, updated_at, deleted_at, changed_by
    FROM activities WHERE id = ?`);
  const update = db.prepare(`UPDATE activities SET name = ?, slug = ?, revision = revision + 1,
      updated_at = ?, changed_by = ? WHERE id = ?`);
  const undelete = db.prepare(`UPDATE activities SET slug = ?, deleted_at = NULL,
      revision = revision + 1, updated_at = ?, changed_by = ? WHERE id = ?`);
  const softDelete = db.prepare(
    'UPDATE activities SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  );
  const usedByLiveTime = db
    .prepare(`SELECT EXISTS (SELECT 1 FROM time_activities ta
      JOIN times t ON t.id = ta.time_id WHERE ta.activity_id = ? AND t.deleted_at IS NULL)`)
    .pluck();

  return {
    /** The live activity with that slug (a deleted one has released its slug). */
    findBySlug: (slug: string, withParents = false) =>
      (withParents ? bySlugWithParents : bySlug).get(slug) as LiveActivityRow | undefined,

    /** The activity with that uuid, live or deleted (a deleted one shows its last slug). */
    findByUuid: (uuid: string) => byUuid.get(uuid) as ActivityRow | undefined,

    /** findByUuid with every revision and who made each (GET …/:uuid/history). */
    findHistory: (uuid: string) => historyByUuid.get(uuid) as ActivityHistoryRow | undefined,

    /** The id of the live activity with that slug. */
    idOf: (slug: string) => liveIdsBySlug.get(slug) as number | undefined,

    /** The list of GET /activities in a snapshot of its own. */
    openList: (filters: ActivityListFilters) =>
      readList(readers, activityListQuery(filters), activityText),

    insert(name: string, slug: string, now: number, changedBy: number | null): number {
      return Number(insert.run(randomUUID(), name, slug, now, changedBy).lastInsertRowid);
    },

    /** Copies the current row to history, then writes the next revision over it. */
    revise(id: number, name: string, slug: string, now: number, changedBy: number): void {
      archive.run(id);
      update.run(name, slug, now, changedBy, id);
    },

    /** Copies the deleted activity to history and makes it live, with `slug`, as the next revision. */
    restore(id: number, slug: string, now: number, changedBy: number): void {
      archive.run(id);
      undelete.run(slug, now, changedBy, id);
    },

    softDelete: (id: number, now: number) => softDelete.run(now, id).changes === 1,

    /** Whether a live time entry lists this activity (then it may not be deleted). */
    isUsedByLiveTime: (id: number) => usedByLiveTime.get(id) === 1,
  };
}
