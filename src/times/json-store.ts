// SQL of a time entry's API JSON: computed from its rows, and stored (sql/004, time_json)
// so that reads send it as it is, a second time clustered by user and month in list order
// (sql/005 and 007, time_user_json) for the lists of a user's entries. The stored text is
// never stale: every write of an entry rewrites both in the same transaction (refresh),
// and a change that alters many entries' JSON at once (a project's slugs, an activity's
// slug) marks theirs NULL in both in its own transaction. A NULL is computed by the
// reader (coalesce) until db/json-filler.ts has filled it again, so reads never wait for
// the fill.
import { hasSlugSql } from '../activities/store';
import type { Db } from '../db/open';
import { projectSlugsSql } from '../projects/store';
import { usernameSql } from '../users/store';
import { type TimeJsonSources, timeHistorySql, timeJsonSql } from './json';

/** How a time's fields are read from its current row (`times t`). */
const CURRENT: TimeJsonSources = {
  row: 't',
  usernameOf: usernameSql,
  projectSlugsOf: projectSlugsSql,
  // The activity slugs of the current revision. An activity the old reference server
  // deleted has no slug and is left out, as that server did (docs/backups.md).
  activitySlugs: `(SELECT json_group_array(a.slug ORDER BY a.slug) FROM time_activities ta
    JOIN activities a ON a.id = ta.activity_id
    WHERE ta.time_id = t.id AND ${hasSlugSql('a.slug')})`,
};

/** How a revision's fields are read from its row (`time_revisions r`). */
const REVISION: TimeJsonSources = {
  row: 'r',
  usernameOf: usernameSql,
  projectSlugsOf: projectSlugsSql,
  // The activity slugs of a revision, from the ids it kept (slugless ones left out).
  activitySlugs: `(SELECT json_group_array(a.slug ORDER BY a.slug)
    FROM json_each(r.activity_ids) j JOIN activities a ON a.id = j.value
    WHERE ${hasSlugSql('a.slug')})`,
};

/** A time's API JSON computed from its rows (FROM times t), with `parents` when asked for. */
export const computedTimeJson = (withParents: boolean) =>
  timeJsonSql(CURRENT, REVISION, withParents);

/** A time's history (FROM times t), computed: GET /v0/times/:uuid/history. */
export const TIME_HISTORY_JSON = timeHistorySql(CURRENT, REVISION);

const COMPUTED = computedTimeJson(false);

/** A time's stored API JSON (FROM times t): NULL while it is to be computed. */
export const STORED_TIME_JSON = '(SELECT j.json FROM time_json j WHERE j.time_id = t.id)';

/**
 * A time's API JSON as reads send it (FROM times t): the stored text, else computed
 * (coalesce evaluates its second argument only for a NULL). With `parents` it is always
 * computed: the history is read rarely and stored nowhere.
 */
export const timeJson = (withParents: boolean) =>
  withParents ? computedTimeJson(true) : `coalesce(${STORED_TIME_JSON}, ${COMPUTED})`;

/**
 * A time's API JSON as a list over time_user_json (FROM time_user_json `row`) sends it:
 * the stored text, else computed from the entry's rows.
 */
export const userJsonText = (row: string) =>
  `coalesce(${row}.json, (SELECT ${COMPUTED} FROM times t WHERE t.id = ${row}.time_id))`;

/** Stored JSON that differs from a fresh computation: `admin check` lists these uuids. */
export const STALE_TIME_JSON_SQL = `SELECT t.uuid FROM time_json j JOIN times t ON t.id = j.time_id
  WHERE j.json IS NOT NULL AND j.json IS NOT ${COMPUTED} ORDER BY t.id`;

/** Entries whose time_user_json row is missing or says other than times and time_json. */
export const UNMATCHED_USER_JSON_SQL = `SELECT t.uuid FROM times t
    LEFT JOIN time_json j ON j.time_id = t.id
    LEFT JOIN time_user_json u ON u.time_id = t.id
  WHERE u.time_id IS NULL OR u.user_id IS NOT t.user_id OR u.date_worked IS NOT t.date_worked
    OR u.month IS NOT substr(t.date_worked, 1, 7) OR u.project_id IS NOT t.project_id
    OR u.deleted_at IS NOT t.deleted_at OR u.changed_at IS NOT coalesce(t.updated_at, t.created_at)
    OR u.uuid IS NOT t.uuid OR u.json IS NOT j.json
  ORDER BY t.id`;

export type TimeJsonStore = ReturnType<typeof createTimeJsonStore>;

export function createTimeJsonStore(db: Db) {
  const refreshJson = db
    .prepare(`UPDATE time_json AS j
    SET json = (SELECT ${COMPUTED} FROM times t WHERE t.id = j.time_id) WHERE j.time_id = ?
    RETURNING json`)
    .pluck();
  // The row's key (user, month, last change, uuid) and day are kept by the triggers of
  // sql/007; the rest is copied here, in place (no key column is set: that would delete
  // and insert the row again).
  const copyToUser = db.prepare(`UPDATE time_user_json AS u
    SET project_id = s.project_id, deleted_at = s.deleted_at, json = s.json
    FROM (SELECT t.id, t.project_id, t.deleted_at, j.json
      FROM json_each(?) e JOIN times t ON t.id = e.value JOIN time_json j ON j.time_id = t.id) AS s
    WHERE u.time_id = s.id`);
  const staleIds = db.prepare('SELECT time_id FROM time_json WHERE json IS NULL LIMIT ?').pluck();
  const fillJson = db.prepare(`UPDATE time_json AS j
    SET json = (SELECT ${COMPUTED} FROM times t WHERE t.id = j.time_id)
    WHERE j.time_id IN (SELECT value FROM json_each(?))`);
  const anyStale = db.prepare('SELECT EXISTS (SELECT 1 FROM time_json WHERE json IS NULL)').pluck();
  const projectStale = db.prepare(`UPDATE time_json SET json = NULL
    WHERE time_id IN (SELECT id FROM times WHERE project_id = ?)`);
  const projectUserStale = db.prepare(`UPDATE time_user_json SET json = NULL
    WHERE time_id IN (SELECT id FROM times WHERE project_id = ?)`);
  const activityStale = db.prepare(`UPDATE time_json SET json = NULL
    WHERE time_id IN (SELECT time_id FROM time_activities WHERE activity_id = ?)`);
  const activityUserStale = db.prepare(`UPDATE time_user_json SET json = NULL
    WHERE time_id IN (SELECT time_id FROM time_activities WHERE activity_id = ?)`);
  return {
    /** What the background filler calls this JSON in its log line, and what it counts. */
    name: 'time',
    counted: 'entries',

    /**
     * Rewrites one entry's JSON from its rows (both copies), the last step of every write
     * of a time, and answers it: the write's response, with no second read of the entry.
     */
    refresh(timeId: number): string {
      const json = refreshJson.get(timeId) as string;
      copyToUser.run(`[${timeId}]`);
      return json;
    },

    /** Computes up to `limit` stale entries' JSON; answers how many it wrote. */
    fill(limit: number): number {
      const ids = JSON.stringify(staleIds.all(limit));
      const wrote = fillJson.run(ids).changes;
      copyToUser.run(ids);
      return wrote;
    },

    /** Whether any entry's JSON is to be computed (one probe of a partial index). */
    hasStale: () => anyStale.get() === 1,

    /** The project's slugs changed: its entries show them. */
    markProjectStale(projectId: number): void {
      projectStale.run(projectId);
      projectUserStale.run(projectId);
    },

    /** The activity's slug changed: the entries that have it show it. */
    markActivityStale(activityId: number): void {
      activityStale.run(activityId);
      activityUserStale.run(activityId);
    },
  };
}
