// An activity row → the API object (SPEC §4.2, §5), whose shape is src/shapes/activity.ts.
// Earlier revisions are read as a JSON array built in SQL from ACTIVITY_REVISION_SQL,
// whose keys the compiler checks against ActivityRevision (the shape's, with its times as
// stored).
import { type ChangeTimes, changeDates, changedAt, withChange, withParents } from '../db/revisions';
import { parseSqlJsonArray, type SqlOf } from '../db/sql-json';
import type {
  Activity,
  ActivityHistoryRevision,
  ActivityRevision as ActivityRevisionJson,
} from '../shapes/activity';

/**
 * The stored slug of an activity that has none: one the old reference server deleted (its
 * DELETE set the slug to NULL; `migrate-from-timesync-node` keeps such activities, SPEC
 * §10). The column stays NOT NULL — a nullable one would be a schema change — and '' is
 * never a slug, so no lookup by slug reaches such a row. Only a deleted activity, or a
 * revision, has it (`admin check` reports a live one); the API shows it as null.
 */
export const NO_SLUG = '';

/** SQL of a stored activity slug as the API shows it: null for NO_SLUG. */
export const shownSlugSql = (column: string) => `nullif(${column}, '${NO_SLUG}')`;

/**
 * The fields an activity shows, of its current row or of one of its revisions, as SQL
 * reads them: the times as stored (ms), no uuid (the activity's). `slug` is null only for
 * an activity deleted by the old reference server (NO_SLUG).
 */
export type ActivityRevision = Omit<ActivityRevisionJson, 'uuid' | keyof ChangeTimes> & ChangeTimes;

export interface ActivityRow extends ActivityRevision {
  id: number;
  uuid: string;
  /** JSON array of earlier revisions, newest first; only when revisions were asked for. */
  parents?: string;
}

/** A live activity: it always has a slug. */
export type LiveActivityRow = ActivityRow & { slug: string };

/** How SQL reads each field of a revision row `r` (activity_revisions). */
export const ACTIVITY_REVISION_SQL: SqlOf<ActivityRevision> = {
  revision: 'r.revision',
  name: 'r.name',
  slug: shownSlugSql('r.slug'),
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
  deleted_at: 'r.deleted_at',
};

const activityJson = (uuid: string, a: ActivityRevision): ActivityRevisionJson => ({
  name: a.name,
  slug: a.slug,
  uuid,
  revision: a.revision,
  ...changeDates(a),
});

/** A revision of an activity with who made it (a username; null: not recorded). */
export interface ActivityChange extends ActivityRevision {
  changed_by: string | null;
}

/** An activity row read for its history (its revisions with who made each). */
export interface ActivityHistoryRow extends ActivityRow {
  changed_by: string | null;
  parents: string;
}

/**
 * How SQL reads a revision row `r` for the history, given the SQL of a user's name (the
 * store's): the fields `parents` shows, and who made it.
 */
export const activityChangeSql = (usernameOf: (id: string) => string): SqlOf<ActivityChange> => ({
  ...ACTIVITY_REVISION_SQL,
  changed_by: usernameOf('r.changed_by'),
});

export const toActivityJson = (row: ActivityRow): Activity =>
  withParents(activityJson(row.uuid, row), row.parents, ACTIVITY_REVISION_SQL, (p) =>
    activityJson(row.uuid, p),
  );

export const activityText = (row: ActivityRow) => JSON.stringify(toActivityJson(row));

/**
 * GET /v0/activities/:uuid/history (issue 29): every revision, newest first, as it was
 * served, each with who made it and when.
 */
export function toActivityHistory(row: ActivityHistoryRow): ActivityHistoryRevision[] {
  const parents = parseSqlJsonArray(row.parents, activityChangeSql(String));
  return [row, ...parents].map((r) =>
    withChange(activityJson(row.uuid, r), r.changed_by, changedAt(r)),
  );
}
