// SQL of a time entry's API JSON, two ways that must agree:
// - computed from the plain tables (times, time_activities, time_revisions and the names
//   they point at): the reference, used for revisions (include_revisions) and by `admin
//   check`, which compares it with the other for every entry;
// - written from the derived rows of sql/009 (time_user_rows, project_slug_lists,
//   activity_sets), which triggers keep exact in the transaction of every write, whoever
//   writes: what every read sends. An entry's row holds its own fields, the costly ones
//   (dates, quoted text) already as JSON; its username, project slugs and activity slugs
//   are joined from small tables, so a rename rewrites one small row, never the entries.
import { hasSlugSql } from '../activities/store';
import { formatObjectSql, type JsonFieldsOf, jsonRows, type NameLookup } from '../db/sql-json';
import { projectSlugsSql } from '../projects/store';
import { usernameSql } from '../users/store';
import { type TimeJson, type TimeJsonSources, timeHistorySql, timeJsonSql } from './json';

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

/** The slugs of a JSON array of activity ids, as entries show them (slugless ones left out). */
const activitySlugsOfIds = (ids: string) => `(SELECT json_group_array(a.slug ORDER BY a.slug)
  FROM json_each(${ids}) j JOIN activities a ON a.id = j.value WHERE ${hasSlugSql('a.slug')})`;

/** How a revision's fields are read from its row (`time_revisions r`). */
const REVISION: TimeJsonSources = {
  row: 'r',
  usernameOf: usernameSql,
  projectSlugsOf: projectSlugsSql,
  // The activity slugs of a revision, from the ids it kept.
  activitySlugs: activitySlugsOfIds('r.activity_ids'),
};

/** A time's API JSON computed from its rows (FROM times t), with `parents` when asked for. */
export const computedTimeJson = (withParents: boolean) =>
  timeJsonSql(CURRENT, REVISION, withParents);

/** A time's history (FROM times t), computed: GET /v0/times/:uuid/history. */
export const TIME_HISTORY_JSON = timeHistorySql(CURRENT, REVISION);

/**
 * The joins that bring an entry's borrowed names beside its row `row` of time_user_rows:
 * `lu` (its user), `lp` (its project's slug list), `ls` (its activity set). Written as
 * CROSS JOINs so that SQLite keeps `row` (or what leads to it) as the outer loop: each is
 * one lookup by primary key in a small table. Lists read whole look them up instead
 * (NAMES' `lookup`), once per list.
 */
export const namesJoin = (row: string, join: 'CROSS' | 'LEFT' = 'CROSS') =>
  `${join} JOIN users lu ON lu.id = ${row}.user_id
  ${join} JOIN project_slug_lists lp ON lp.project_id = ${row}.project_id
  ${join} JOIN activity_sets ls ON ls.id = ${row}.activity_set_id`;

/** The names an entry borrows: from namesJoin's tables, or looked up by key. */
const NAMES = {
  user: {
    joined: 'json_quote(lu.username)',
    lookup: 'SELECT json_quote(username) FROM users WHERE id = ?1',
  },
  project: {
    joined: 'lp.json',
    lookup: 'SELECT json FROM project_slug_lists WHERE project_id = ?1',
  },
  activities: { joined: 'ls.json', lookup: 'SELECT json FROM activity_sets WHERE id = ?1' },
} satisfies Record<string, NameLookup>;

/**
 * A time's API JSON as reads send it, from its row `row` of time_user_rows (its own
 * fields, the costly ones written as JSON by the triggers) and the names it borrows:
 * typed against TimeJson, so that a missing or extra key is a compile error.
 */
const listedTimeFields = (row: string): JsonFieldsOf<TimeJson> => ({
  uuid: { text: `${row}.uuid` },
  revision: { json: `${row}.revision` },
  duration: { json: `${row}.duration` },
  user: { name: NAMES.user, key: `${row}.user_id` },
  project: { name: NAMES.project, key: `${row}.project_id` },
  activities: { name: NAMES.activities, key: `${row}.activity_set_id` },
  date_worked: { text: `${row}.date_worked` },
  start_time: { json: `${row}.start_time` },
  issue_uri: { json: `${row}.issue_uri` },
  notes: { json: `${row}.notes` },
  created_at: { json: `${row}.created` },
  updated_at: { json: `${row}.updated` },
  deleted_at: { json: `${row}.deleted` },
});

/** The two aliases time_user_rows goes by: `t` (a user's list), `l` (joined to times). */
type RowAlias = 't' | 'l';

// Worked out once, at start-up: lists build their SQL per request.
const LISTED_TIME = {
  t: formatObjectSql(listedTimeFields('t')),
  l: formatObjectSql(listedTimeFields('l')),
};
const LISTED_TIMES = { t: jsonRows(listedTimeFields('t')), l: jsonRows(listedTimeFields('l')) };

/** One time's API JSON from its row `row` of time_user_rows, with namesJoin(row). */
export const listedTimeJson = (row: RowAlias) => LISTED_TIME[row];

/**
 * The SELECT of a list's body: the API JSON of the times whose rows `row` of
 * time_user_rows `from` reads (FROM … WHERE, no namesJoin: the names are looked up), as
 * one array, in `order`, or as the rows come when there is none (see jsonRows).
 */
export const listedTimesSql = (row: RowAlias, from: string, order?: string) =>
  LISTED_TIMES[row](from, order);

/** An entry `t` of times and its row `l` of time_user_rows: the row's key, from the entry. */
const ROW_OF_ENTRY = `l.user_id = t.user_id AND l.month = substr(t.date_worked, 1, 7)
  AND l.changed_at = coalesce(t.updated_at, t.created_at) AND l.uuid = t.uuid`;

/** Joins an entry `t` of times to its row `l` of time_user_rows, by that row's key. */
export const USER_ROW_OF_TIME = `CROSS JOIN time_user_rows l ON ${ROW_OF_ENTRY}`;

/**
 * Entries whose API JSON as reads send it differs from a fresh computation, or that have
 * no row in time_user_rows: `admin check` lists these uuids (wrong, not merely pending:
 * nothing of a time entry's is ever left to be computed later).
 */
export const WRONG_TIME_JSON_SQL = `SELECT t.uuid FROM times t
  LEFT JOIN time_user_rows l ON ${ROW_OF_ENTRY} ${namesJoin('l', 'LEFT')}
  WHERE l.uuid IS NULL OR l.time_id IS NOT t.id OR l.project_id IS NOT t.project_id
    OR l.deleted_at IS NOT t.deleted_at OR l.date_worked IS NOT t.date_worked
    OR ${listedTimeJson('l')} IS NOT ${computedTimeJson(false)}
  ORDER BY t.id`;

/** Rows of time_user_rows that belong to no entry (under that key). */
export const ORPHAN_TIME_ROWS_SQL = `SELECT l.user_id, l.month, l.time_id FROM time_user_rows l
  WHERE NOT EXISTS (SELECT 1 FROM times t WHERE t.uuid = l.uuid AND ${ROW_OF_ENTRY})`;

/** Projects whose slug list is missing or differs from their slugs. */
export const WRONG_SLUG_LISTS_SQL = `SELECT p.uuid FROM projects p
  LEFT JOIN project_slug_lists lp ON lp.project_id = p.id
  WHERE lp.json IS NOT ${projectSlugsSql('p.id')} ORDER BY p.id`;

/** Activity sets whose slugs differ from their activities'. */
export const WRONG_ACTIVITY_SETS_SQL = `SELECT s.ids FROM activity_sets s
  WHERE s.json IS NOT ${activitySlugsOfIds('s.ids')} ORDER BY s.id`;
