// SQL of time entries, prepared once. A time is read as its API JSON text written by
// SQLite (json-sql.ts) from its row of time_user_rows: a listed time is one text column,
// with no JavaScript object made and serialised per row — one user's month is hundreds of
// rows. The triggers of sql/009 keep those rows exact; nothing here writes them.
import { type ListQuery, readList, type WholeListSql } from '../db/list-reader';
import type { Db } from '../db/open';
import type { ReaderPool } from '../db/readers';
import type { ShortLists } from '../db/short-lists';
import { jsonArrayOfSql } from '../db/sql-json';
import { type CsvNames, type TimeRow, timeText } from './json';
import {
  computedTimeJson,
  listedTimeJson,
  listedTimesSql,
  namesJoin,
  TIME_HISTORY_JSON,
  USER_ROW_OF_TIME,
} from './json-sql';

/** A time with what the service decides on, and the viewer's role in its project. */
export interface StoredTime extends TimeRow {
  id: number;
  uuid: string;
  user_id: number;
  project_id: number;
  duration: number;
  date_worked: string;
  start_time: string | null;
  issue_uri: string | null;
  notes: string | null;
  deleted_at: number | null;
  /** JSON array of activity ids */
  activity_ids: string;
  viewer_member: number;
  viewer_spectator: number;
  viewer_manager: number;
}

export interface TimeListFilters {
  /** The caller: sees every time, or only their own and those of projects they watch. */
  viewer: { id: number; seesAll: boolean };
  userIds: readonly number[];
  projectIds: readonly number[];
  activityIds: readonly number[];
  /** inclusive YYYY-MM-DD bounds on date_worked */
  start?: string;
  end?: string;
  includeDeleted: boolean;
  includeRevisions: boolean;
  /**
   * Issue 32: only entries whose week part is `approved`, `submitted`, or `open` (no part,
   * or one open or rejected: not yet checked); undefined: all.
   */
  status?: TimeStatusFilter;
  /** Each listed entry's JSON also carries its week part's `status` (the CSV column). */
  withStatus?: boolean;
  /** Extension: entries whose notes contain this text (ASCII letters in any case). */
  notesContains?: string;
  /** Extension: the list's order; absent: last change (SPEC §6). */
  order?: TimeOrder;
}

/** GET /times?order= (extension): a column, `-` for descending. */
export const TIME_ORDERS = ['date_worked', '-date_worked', 'duration', '-duration'] as const;
export type TimeOrder = (typeof TIME_ORDERS)[number];

/** ORDER BY of a list over `t` (times or time_user_rows): the order asked for, ties by last change. */
function orderBy(order: TimeOrder | undefined, changed: string): string {
  const last = `${changed}, t.uuid`;
  if (!order) return `ORDER BY ${last}`;
  const column = order.replace('-', '');
  return `ORDER BY t.${column}${order.startsWith('-') ? ' DESC' : ''}, ${last}`;
}

export type TimeStatusFilter = 'approved' | 'submitted' | 'open';

/** SQL: the week part of the entry `t` (user_id, project_id, date_worked) has one of `statuses`. */
const partIs = (statuses: string) => `EXISTS (SELECT 1 FROM week_parts wp
  WHERE wp.user_id = t.user_id AND wp.project_id = t.project_id
    AND wp.week = strftime('%G-W%V', t.date_worked) AND wp.status IN (${statuses}))`;

const STATUS_SQL: Record<TimeStatusFilter, string> = {
  approved: partIs("'approved'"),
  submitted: partIs("'submitted'"),
  open: `NOT ${partIs("'submitted', 'approved'")}`,
};

/** SQL of the status of the entry `t`'s week part ('open' when it has none). */
const PART_STATUS_SQL = `coalesce((SELECT wp.status FROM week_parts wp
  WHERE wp.user_id = t.user_id AND wp.project_id = t.project_id
    AND wp.week = strftime('%G-W%V', t.date_worked)), 'open')`;

/** A WHERE clause over `times t` (or `time_user_rows t`) and its bound parameters, in order. */
export interface TimeWhere {
  /**
   * `times t`, held to the index of its user or project filter when there is one: with
   * ANALYZE statistics the planner preferred a range of the covering times_date to them.
   */
  from: string;
  /** `WHERE …`, or '' when nothing filters */
  clause: string;
  params: unknown[];
}

/**
 * The filters and the viewer's visibility (SPEC §3) of GET /times as a WHERE clause
 * over `times t`: the one place they become SQL, used by the list (timeListQuery) and
 * by reports, so a report never counts an entry the list would not show. Each filter
 * adds a fixed SQL fragment with one bound parameter (repeated values travel as one
 * JSON array), so every combination of filters is one SQL text, prepared once per
 * reader connection.
 */
export function timeWhere(f: TimeListFilters, timeId = 't.id'): TimeWhere {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (!f.includeDeleted) where.push('t.deleted_at IS NULL');
  // One user (a month of one person's, the commonest list) by equality: an IN list makes
  // SQLite sort rows that time_user_rows's key already gives in list order (sql/009).
  if (f.userIds.length === 1) add('t.user_id = ?', f.userIds[0]);
  else if (f.userIds.length > 1) {
    add('t.user_id IN (SELECT value FROM json_each(?))', JSON.stringify(f.userIds));
  }
  if (f.projectIds.length > 0) {
    add('t.project_id IN (SELECT value FROM json_each(?))', JSON.stringify(f.projectIds));
  }
  if (f.activityIds.length > 0) {
    add(
      `EXISTS (SELECT 1 FROM time_activities ta WHERE ta.time_id = ${timeId}
        AND ta.activity_id IN (SELECT value FROM json_each(?)))`,
      JSON.stringify(f.activityIds),
    );
  }
  if (f.start !== undefined) add('t.date_worked >= ?', f.start);
  if (f.end !== undefined) add('t.date_worked <= ?', f.end);
  if (f.status !== undefined) where.push(STATUS_SQL[f.status]);
  if (f.notesContains !== undefined) {
    // Looked up in the entry's row: time_user_rows holds its notes as JSON text.
    add(
      `EXISTS (SELECT 1 FROM times n WHERE n.id = ${timeId} AND instr(lower(n.notes), ?) > 0)`,
      f.notesContains.toLowerCase(),
    );
  }
  if (!f.viewer.seesAll) {
    // SPEC §3: the owner and the project's managers and spectators (policy.canViewTime).
    // With a user or project filter, that filter's index must drive the query, so the
    // visibility test is written to be checked per row (`+`, EXISTS), not as an index OR.
    add(
      f.userIds.length > 0 || f.projectIds.length > 0
        ? `(+t.user_id = ? OR EXISTS (SELECT 1 FROM project_users pu
            WHERE pu.project_id = t.project_id AND pu.user_id = ?
              AND (pu.manager = 1 OR pu.spectator = 1)))`
        : `(t.user_id = ? OR t.project_id IN (SELECT project_id FROM project_users
            WHERE user_id = ? AND (manager = 1 OR spectator = 1)))`,
      f.viewer.id,
      f.viewer.id,
    );
  }
  const index =
    f.userIds.length > 0
      ? ' INDEXED BY times_user_date'
      : f.projectIds.length > 0
        ? ' INDEXED BY times_project_date'
        : '';
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return { from: `times t${index}`, clause, params };
}

/**
 * The list query of GET /times: its filters and visibility (timeWhere), ordered. A list of
 * some users' entries (one user's month, the commonest) reads time_user_rows (sql/009),
 * where they lie together with all the filters need, instead of a `times` row per entry
 * on pages of their own; other lists go from `times` to each entry's row by its key.
 */
export function timeListQuery(f: TimeListFilters): ListQuery & { whole: WholeListSql } {
  // CSV's status column: the entry's JSON with its part's status added (issue 32).
  const shown = (json: string) =>
    f.withStatus ? `json_set(${json}, '$.status', ${PART_STATUS_SQL})` : json;
  if (f.includeRevisions) {
    const where = timeWhere(f);
    const ordered = `SELECT ${shown(computedTimeJson(true))} AS json FROM ${where.from} ${where.clause}
      ${orderBy(f.order, 'coalesce(t.updated_at, t.created_at)')}`;
    return timeList(where, ordered, where.params);
  }
  if (f.userIds.length > 0) {
    // time_user_rows has the columns of times that timeWhere reads, under the same names.
    const { clause, params, oneMonth } = withMonths(timeWhere(f, 't.time_id'), f);
    const order = orderBy(f.order, 't.changed_at');
    const ordered = `SELECT ${shown(listedTimeJson('t'))} AS json FROM time_user_rows t ${namesJoin('t')}
      ${clause} ${order}`;
    // The counts read the narrow times_user_date, which covers every column they test
    // (~50 µs for one user's month, against ~120 µs over the wide rows).
    const counted = timeWhere(f);
    // One user's month in list order is one range of time_user_rows's key (user, month,
    // last change, uuid): read in key order, its rows need no ORDER BY, so json_rows
    // takes them straight from the table instead of through a subquery that copies
    // every value once more (~25 % of the statement). test/api/times/query-plan.test.ts
    // checks the plan.
    const inKeyOrder = f.userIds.length === 1 && !f.order && oneMonth;
    const body = f.withStatus
      ? undefined
      : listedTimesSql('t', `time_user_rows t ${clause}`, inKeyOrder ? undefined : order);
    return timeList(counted, ordered, params, counted.params, body);
  }
  const where = timeWhere(f);
  const order = orderBy(f.order, 'coalesce(t.updated_at, t.created_at)');
  const ordered = `SELECT ${shown(listedTimeJson('l'))} AS json FROM ${where.from} ${USER_ROW_OF_TIME}
    ${namesJoin('l')} ${where.clause} ${order}`;
  const body = f.withStatus
    ? undefined
    : listedTimesSql('l', `${where.from} ${USER_ROW_OF_TIME} ${where.clause}`, order);
  return timeList(where, ordered, where.params, undefined, body);
}

/**
 * The months of time_user_rows's key (sql/009) that the date filters span, added to its
 * WHERE: one month by equality (`oneMonth`), so that its rows come in list order and need
 * no sort (SQLite still sorts a range of several); the date filters stay for the days.
 */
function withMonths(where: TimeWhere, f: TimeListFilters): TimeWhere & { oneMonth: boolean } {
  const first = f.start?.slice(0, 7);
  const last = f.end?.slice(0, 7);
  const months: string[] = [];
  const params = [...where.params];
  const add = (sql: string, month: string) => {
    months.push(sql);
    params.push(month);
  };
  const oneMonth = first !== undefined && first === last;
  if (oneMonth) add('t.month = ?', first);
  else {
    if (first !== undefined) add('t.month >= ?', first);
    if (last !== undefined) add('t.month <= ?', last);
  }
  if (months.length === 0) return { ...where, oneMonth };
  const clause = `${where.clause ? `${where.clause} AND` : 'WHERE'} ${months.join(' AND ')}`;
  return { ...where, clause, params, oneMonth };
}

/**
 * A time list's statements: counted over `counted` (a list too long to be read whole),
 * its rows `ordered` (a `json` column in list order, no LIMIT). Read whole, it is one JSON
 * array written by json_rows and counted in the same pass (`body`, by default over
 * `ordered`), unpaged: `ORDER BY … LIMIT` makes SQLite keep a B-tree of the
 * best rows instead of using its sorter, which for one user's month (~550 rows of ~300
 * bytes) cost as much as all the rest of the statement. SQLite keeps the ORDER BY of a
 * FROM subquery whose outer query is an aggregate of that one subquery (select.c, the
 * rules for omitting an ORDER BY), so the rows come in list order;
 * test/api/times/times.test.ts checks it.
 */
const timeList = (
  counted: TimeWhere,
  ordered: string,
  params: unknown[],
  countParams?: unknown[],
  body = `SELECT ${jsonArrayOfSql('json')} FROM (${ordered})`,
): ListQuery & { whole: WholeListSql } => ({
  countSql: `SELECT count(*) FROM ${counted.from} ${counted.clause}`,
  pageSql: `${ordered} LIMIT ? OFFSET ?`,
  whole: {
    bodySql: body,
  },
  params,
  countParams,
});

/** The columns a write of a time sets, on insert and on update alike. */
interface TimeColumns {
  duration: number;
  user_id: number;
  project_id: number;
  date_worked: string;
  /** HH:MM:SS or null (issue 31) */
  start_time: string | null;
  issue_uri: string | null;
  notes: string | null;
  changed_by: number;
}

export interface NewTime extends TimeColumns {
  uuid: string;
  created_at: number;
}

export interface TimeChanges extends TimeColumns {
  id: number;
  updated_at: number;
}

export interface LiveProject {
  id: number;
  /** null also when the default activity has been deleted since */
  default_activity_id: number | null;
}

export type TimeStore = ReturnType<typeof createTimeStore>;

/** What decides whether an entry may be written (issue 32): see TimeStore.lockState. */
export interface LockState {
  before: string | null;
  week: string;
  status: string | null;
}

/**
 * One time by uuid (parameters: viewer id, uuid) with what the service decides on when it
 * writes (StoredTime): its columns and activity ids, the viewer's role in its project and
 * its API JSON, in one indexed lookup.
 */
export const TIME_BY_UUID_SQL = `SELECT t.id, t.uuid, t.user_id, t.project_id, t.duration,
    t.date_worked, t.start_time, t.issue_uri, t.notes, t.deleted_at,
    (SELECT json_group_array(activity_id ORDER BY activity_id) FROM time_activities
      WHERE time_id = t.id) AS activity_ids,
    coalesce(pu.member, 0) AS viewer_member, coalesce(pu.spectator, 0) AS viewer_spectator,
    coalesce(pu.manager, 0) AS viewer_manager, ${listedTimeJson('l')} AS json
  FROM times t ${USER_ROW_OF_TIME} ${namesJoin('l')}
    LEFT JOIN project_users pu ON pu.project_id = t.project_id AND pu.user_id = ?
  WHERE t.uuid = ?`;

/**
 * Issue 32: the lock date and the status of one week part (parameters: date, user id,
 * project id), two primary-key lookups in tables that are empty until approvals are used
 * (test/api/times/query-plan.test.ts). The week is SQLite's, as the status filter
 * (timeWhere) computes it.
 */
export const LOCK_STATE_SQL = `SELECT (SELECT before FROM lock_date WHERE id = 1), w.week, wp.status
  FROM (SELECT strftime('%G-W%V', ?) AS week) w
    LEFT JOIN week_parts wp ON wp.user_id = ? AND wp.project_id = ? AND wp.week = w.week`;

/** LOCK_STATE_SQL as a function of (date, user id, project id), prepared on `db`. */
function lockStateReader(db: Db) {
  const statement = db.prepare(LOCK_STATE_SQL).raw(true);
  return (date: string, userId: number, projectId: number): LockState => {
    const [before, week, status] = statement.get(date, userId, projectId) as [
      string | null,
      string,
      string | null,
    ];
    return { before, week, status };
  };
}

/** What GET /times/:uuid decides on: a time's owner, project, deletion and JSON. */
export interface ViewedTime extends TimeRow {
  uuid: string;
  user_id: number;
  project_id: number;
  deleted_at: number | null;
}

/** TIME_VIEW_SQL as a raw row: its columns in order. */
type ViewRow = [string, number, number, number | null, string];

/** One time by uuid (parameter: uuid) with its JSON as `json` (over `times t` and `joins`). */
const viewSql = (json: string, joins = '') => `SELECT t.uuid, t.user_id, t.project_id,
    t.deleted_at, ${json} AS json
  FROM times t ${joins} WHERE t.uuid = ?`;

/**
 * The commonest single read: what TIME_BY_UUID_SQL reads less the activity ids only
 * writes need and the viewer's role, which the service reads apart when it matters.
 */
export const TIME_VIEW_SQL = viewSql(listedTimeJson('l'), `${USER_ROW_OF_TIME} ${namesJoin('l')}`);

/** The same with its history (include_revisions), computed from the plain tables. */
const TIME_VIEW_WITH_PARENTS_SQL = viewSql(computedTimeJson(true));

/** Its history (GET /v0/times/:uuid/history), computed from the plain tables. */
const TIME_HISTORY_SQL = viewSql(TIME_HISTORY_JSON);

/** A time's API JSON by id: the answer of each write, read in its transaction. */
const TIME_JSON_BY_ID_SQL = `SELECT ${listedTimeJson('l')}
  FROM times t ${USER_ROW_OF_TIME} ${namesJoin('l')} WHERE t.id = ?`;

export function createTimeStore(db: Db, readers: ReaderPool, readShort: ShortLists['read']) {
  const byUuid = db.prepare(TIME_BY_UUID_SQL);
  const view = db.prepare(TIME_VIEW_SQL).raw(true);
  const viewWithParents = db.prepare(TIME_VIEW_WITH_PARENTS_SQL);
  const jsonById = db.prepare(TIME_JSON_BY_ID_SQL).pluck();
  const viewHistory = db.prepare(TIME_HISTORY_SQL);

  const liveProjectBySlug = db.prepare(`SELECT p.id, da.id AS default_activity_id
      FROM project_slugs s JOIN projects p ON p.id = s.project_id
      LEFT JOIN activities da ON da.id = p.default_activity_id AND da.deleted_at IS NULL
      WHERE s.slug = ? AND s.live = 1 AND p.deleted_at IS NULL`);
  const projectIsLive = db
    .prepare('SELECT EXISTS (SELECT 1 FROM projects WHERE id = ? AND deleted_at IS NULL)')
    .pluck();
  const liveActivityCount = db
    .prepare(`SELECT count(*) FROM activities
      WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL`)
    .pluck();

  const insert = db.prepare(`INSERT INTO times (uuid, revision, duration, user_id, project_id,
      date_worked, start_time, issue_uri, notes, created_at, changed_by)
    VALUES (@uuid, 1, @duration, @user_id, @project_id, @date_worked, @start_time, @issue_uri,
      @notes, @created_at, @changed_by)`);
  const addActivity = db.prepare(
    'INSERT OR IGNORE INTO time_activities (time_id, activity_id) VALUES (?, ?)',
  );
  const clearActivities = db.prepare('DELETE FROM time_activities WHERE time_id = ?');
  // The current state becomes history exactly as it is, activities included.
  const archive = db.prepare(`INSERT INTO time_revisions (time_id, revision, duration, user_id,
      project_id, date_worked, start_time, issue_uri, notes, activity_ids, created_at,
      updated_at, deleted_at, changed_by)
    SELECT t.id, t.revision, t.duration, t.user_id, t.project_id, t.date_worked, t.start_time,
      t.issue_uri, t.notes, (SELECT json_group_array(activity_id ORDER BY activity_id)
        FROM time_activities WHERE time_id = t.id),
      t.created_at, t.updated_at, t.deleted_at, t.changed_by
    FROM times t WHERE t.id = ?`);
  const update = db.prepare(`UPDATE times SET revision = revision + 1, duration = @duration,
      user_id = @user_id, project_id = @project_id, date_worked = @date_worked,
      start_time = @start_time, issue_uri = @issue_uri, notes = @notes, updated_at = @updated_at, deleted_at = NULL,
      changed_by = @changed_by
    WHERE id = @id`);
  const softDelete = db.prepare(
    'UPDATE times SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  );
  const lockState = lockStateReader(db);
  const namesOf = db
    .prepare(`SELECT (SELECT username FROM users WHERE id = ?),
      (SELECT slug FROM project_slugs WHERE project_id = ? ORDER BY position LIMIT 1)`)
    .raw(true);

  const userNames = db
    .prepare('SELECT lower(username), display_name FROM users WHERE display_name IS NOT NULL')
    .raw(true);
  const projectNames = db
    .prepare(`SELECT (SELECT group_concat(slug, ' ') FROM (SELECT slug FROM project_slugs
        WHERE project_id = p.id ORDER BY position)), p.name FROM projects p`)
    .raw(true);

  const replaceActivities = (timeId: number, activityIds: readonly number[]) => {
    clearActivities.run(timeId);
    for (const activityId of activityIds) addActivity.run(timeId, activityId);
  };

  return {
    /** Any time with that uuid, deleted ones included, with viewerId's role in its project. */
    findByUuid: (uuid: string, viewerId: number) =>
      byUuid.get(viewerId, uuid) as StoredTime | undefined,

    /** findByUuid for a read: what viewing it needs, its history too if asked for. */
    findToView(uuid: string, withParents: boolean): ViewedTime | undefined {
      if (withParents) return viewWithParents.get(uuid) as ViewedTime | undefined;
      // As an array: better-sqlite3 builds a row object through V8's slow API path.
      const row = view.get(uuid) as ViewRow | undefined;
      if (row === undefined) return undefined;
      const [shownUuid, user_id, project_id, deleted_at, json] = row;
      return { uuid: shownUuid, user_id, project_id, deleted_at, json };
    },

    /** findToView with the JSON of its history (GET /v0/times/:uuid/history). */
    findHistory: (uuid: string) => viewHistory.get(uuid) as ViewedTime | undefined,

    /**
     * The list of GET /times, its statements built once: opened in a snapshot of its own
     * (paged, streamed), or read whole as one JSON array when it has at most `cap` entries.
     */
    listing(filters: TimeListFilters) {
      const query = timeListQuery(filters);
      return {
        open: () => readList(readers, query, timeText),
        readWhole: (cap: number) => readShort(query, cap),
      };
    },

    /** Display names and project names for a CSV (times/json.ts CsvNames). */
    csvNames: (): CsvNames => ({
      users: new Map(userNames.all() as [string, string][]),
      projects: new Map(projectNames.all() as [string, string][]),
    }),

    findLiveProject: (slug: string) => liveProjectBySlug.get(slug) as LiveProject | undefined,

    isProjectLive: (projectId: number) => projectIsLive.get(projectId) === 1,

    areActivitiesLive: (activityIds: readonly number[]) =>
      liveActivityCount.get(JSON.stringify(activityIds)) === new Set(activityIds).size,

    /** Stores a new time; answers its API JSON. */
    insert(time: NewTime, activityIds: readonly number[]): string {
      const id = Number(insert.run(time).lastInsertRowid);
      replaceActivities(id, activityIds);
      return jsonById.get(id) as string;
    },

    /**
     * Keeps the current state as a revision, then writes the next one (live again);
     * answers its API JSON.
     */
    update(changes: TimeChanges, activityIds: readonly number[] | undefined): string {
      archive.run(changes.id);
      update.run(changes);
      if (activityIds) replaceActivities(changes.id, activityIds);
      return jsonById.get(changes.id) as string;
    },

    /**
     * What locks an entry of this user and project dated `date`: the lock date (null when
     * none), the entry's ISO week and its week part's status (null when it has no row).
     */
    lockState,

    /** A user's name and a project's first slug, as a refusal names them. */
    namesOf(userId: number, projectId: number): { user: string; project: string } {
      const [user, project] = namesOf.get(userId, projectId) as [string, string];
      return { user, project };
    },

    softDelete(id: number, now: number): boolean {
      return softDelete.run(now, id).changes === 1;
    },
  };
}

/** A time written by an import, with its activities (created_at and changed_by: the batch's). */
export interface ImportedTime extends Omit<TimeColumns, 'changed_by'> {
  uuid: string;
  activityIds: ArrayLike<number>;
}

/**
 * The lock state an import batch was checked against: its rows' states (lockState) and
 * a text of everything they were read from, which a writer in another transaction
 * compares with what it reads in its own (made only when asked).
 */
export interface LockStates {
  stateOf(date: string, userId: number, projectId: number): LockState;
  fingerprint(): string;
}

/**
 * A time's set of activities as one JSON array of ids, ascending (`timeId`: the SQL of its
 * id): how activity_sets (sql/009) names a set, and how a timer's row and a kept row are
 * matched with the entries of theirs.
 */
export const activityIdsSql = (timeId: string) =>
  `(SELECT json_group_array(activity_id) FROM (SELECT activity_id FROM time_activities
    WHERE time_id = ${timeId} ORDER BY activity_id))`;

/** Activity ids as activityIdsSql writes them. */
export const activityIdsText = (ids: readonly number[]) =>
  JSON.stringify([...ids].sort((a, b) => a - b));

export type TimeImportStatements = ReturnType<typeof createTimeImportStatements>;

/**
 * The inserts of an import (importers/engine.ts): new times and their activities, a batch
 * at a time, without reading their JSON back as `insert` does, and with their derived
 * rows written once per batch rather than by the insert triggers row by row (sql/018).
 */
export function createTimeImportStatements(db: Db) {
  const addActivity = db.prepare(
    'INSERT OR IGNORE INTO time_activities (time_id, activity_id) VALUES (?, ?)',
  );
  // sql/018: while bulk_writes has its row (only ever inside this connection's write
  // transaction) the insert triggers leave the derived rows of the entries to these,
  // which are the triggers' own expressions over the batch's ids (@first to @last).
  // Positional values: binding by name costs a lookup per value.
  const insertValues = db.prepare(`INSERT INTO times (uuid, revision, duration, user_id,
      project_id, date_worked, start_time, issue_uri, notes, created_at, changed_by)
    VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const bulkOn = db.prepare('INSERT INTO bulk_writes (id) VALUES (1)');
  const bulkOff = db.prepare('DELETE FROM bulk_writes');
  const monthTotals = db.prepare(`INSERT INTO time_month_totals (month, project_id, user_id,
      duration, entries, deleted_duration, deleted_entries)
    SELECT substr(date_worked, 1, 7), project_id, user_id,
      sum(iif(deleted_at IS NULL, duration, 0)), sum(deleted_at IS NULL),
      sum(iif(deleted_at IS NULL, 0, duration)), sum(deleted_at IS NOT NULL)
    FROM times WHERE id BETWEEN @first AND @last GROUP BY 1, 2, 3
    ON CONFLICT DO UPDATE SET duration = duration + excluded.duration,
      entries = entries + excluded.entries,
      deleted_duration = deleted_duration + excluded.deleted_duration,
      deleted_entries = deleted_entries + excluded.deleted_entries`);
  const setIdsOf = activityIdsSql('t.id');
  // The sets in the order the triggers would have made them (of each set, its first entry).
  const activitySets = db.prepare(`INSERT INTO activity_sets (ids, json)
    SELECT ids, (SELECT json_group_array(slug) FROM (SELECT a.slug FROM json_each(ids) j
      JOIN activities a ON a.id = j.value WHERE a.slug <> '' ORDER BY a.slug))
    FROM (SELECT ${setIdsOf} AS ids, min(t.id) AS first FROM times t
      WHERE t.id BETWEEN @first AND @last GROUP BY 1)
    WHERE true ORDER BY first
    ON CONFLICT (ids) DO NOTHING`);
  const userRows = db.prepare(`INSERT INTO time_user_rows (user_id, month, changed_at, uuid,
      date_worked, time_id, project_id, deleted_at, activity_set_id, revision, duration,
      issue_uri, notes, created, updated, deleted, start_time)
    SELECT t.user_id, substr(t.date_worked, 1, 7), coalesce(t.updated_at, t.created_at), t.uuid,
      t.date_worked, t.id, t.project_id, t.deleted_at,
      (SELECT s.id FROM activity_sets s WHERE s.ids = ${setIdsOf}), t.revision, t.duration,
      json_quote(t.issue_uri), json_quote(t.notes),
      json_quote(date(t.created_at / 1000.0, 'unixepoch')),
      json_quote(date(t.updated_at / 1000.0, 'unixepoch')),
      json_quote(date(t.deleted_at / 1000.0, 'unixepoch')), json_quote(t.start_time)
    FROM times t WHERE t.id BETWEEN @first AND @last
    ORDER BY 1, 2, 3, 4`);
  const lockDate = db.prepare('SELECT before FROM lock_date WHERE id = 1').pluck();
  const closedWeeks = db
    .prepare(`SELECT user_id, project_id, week, status FROM week_parts
      WHERE status IN ('submitted', 'approved') ORDER BY 1, 2, 3`)
    .raw(true);
  const weekOf = db.prepare("SELECT strftime('%G-W%V', ?)").pluck();
  /** Each day's ISO week as LOCK_STATE_SQL writes it, asked once per day per import. */
  const weeks = new Map<string, string>();
  return {
    /**
     * lockState for the rows of one import batch, read once: the lock date and the
     * submitted and approved week parts (what keeps a row out). `status` is null for a
     * part that is open, rejected or absent.
     */
    lockStates(): LockStates {
      const before = (lockDate.get() as string | undefined) ?? null;
      const closed = new Map<string, string>();
      const parts = closedWeeks.all() as [number, number, string, string][];
      for (const [user, project, week, status] of parts) {
        closed.set(`${user}:${project}:${week}`, status);
      }
      const fingerprint = () => JSON.stringify([before, parts]);
      const stateOf = (date: string, userId: number, projectId: number): LockState => {
        let week = weeks.get(date);
        if (week === undefined) {
          week = weekOf.get(date) as string;
          weeks.set(date, week);
        }
        const status =
          closed.size === 0 ? null : (closed.get(`${userId}:${projectId}:${week}`) ?? null);
        return { before, week, status };
      };
      return { stateOf, fingerprint };
    },
    /**
     * New times and their activities, inside the caller's write transaction, with their
     * derived rows written once for all of them (sql/018): their ids, in order.
     */
    insertBatch(
      count: number,
      /** The next time to insert (the same object, filled again, will do). */
      next: () => ImportedTime,
      createdAt: number,
      changedBy: number | null,
    ) {
      const ids: number[] = new Array(count);
      if (count === 0) return ids;
      bulkOn.run();
      for (let i = 0; i < count; i++) {
        const time = next();
        const id = Number(
          insertValues.run(
            time.uuid,
            time.duration,
            time.user_id,
            time.project_id,
            time.date_worked,
            time.start_time,
            time.issue_uri,
            time.notes,
            createdAt,
            changedBy,
          ).lastInsertRowid,
        );
        const activityIds = time.activityIds;
        for (let a = 0; a < activityIds.length; a++) addActivity.run(id, activityIds[a]);
        ids[i] = id;
      }
      const range = { first: ids[0], last: ids[ids.length - 1] };
      monthTotals.run(range);
      activitySets.run(range);
      userRows.run(range);
      bulkOff.run();
      return ids;
    },
  };
}
