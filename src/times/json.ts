// A time entry as the API shows it (SPEC §4.3, §5), as SQLite writes it: the shape is
// src/shapes/time.ts. SQLite writes it (json_object) so that a listed time is one text
// column with no JavaScript object made per row; the key list below is typed against
// that shape, so a field added to one and not the other is a compile error.
import { sqlDate, sqlTimestamp } from '../dates';
import type { SqlOf } from '../db/sql-json';
import { jsonObjectSql } from '../db/sql-json';
import { hoursText } from '../http/csv';
import { JsonText } from '../json-text';
import type { Time, TimeHistoryRevision } from '../shapes/time';

/** A time entry as every answer shows it: the TimeSync shape. */
export type TimeJson = Omit<Time, 'parents'>;

/**
 * One revision as GET /v0/times/:uuid/history shows it: as it was served, plus who made
 * it (`null`: not recorded, an entry migrated from the old reference server) and when,
 * to the millisecond. An extension of ours (issue 29): `include_revisions` answers
 * exactly TimeSync's shape, which has neither.
 */
export type TimeHistoryJson = TimeHistoryRevision;

/** How each field is read from `row` (`t` = times, `r` = time_revisions). */
export interface TimeJsonSources {
  row: 't' | 'r';
  /** SQL of a user id's username. */
  usernameOf: (userId: string) => string;
  /** SQL of a project id's slugs as a JSON array. */
  projectSlugsOf: (projectId: string) => string;
  /** SQL of the row's activity slugs as a JSON array. */
  activitySlugs: string;
}

const timeFieldsSql = ({
  row,
  usernameOf,
  projectSlugsOf,
  activitySlugs,
}: TimeJsonSources): SqlOf<TimeJson> => ({
  uuid: 't.uuid', // revisions keep the time's uuid
  revision: `${row}.revision`,
  duration: `${row}.duration`,
  user: usernameOf(`${row}.user_id`),
  project: `json(${projectSlugsOf(`${row}.project_id`)})`,
  activities: `json(${activitySlugs})`,
  date_worked: `${row}.date_worked`,
  start_time: `${row}.start_time`,
  issue_uri: `${row}.issue_uri`,
  notes: `${row}.notes`,
  created_at: sqlDate(`${row}.created_at`),
  updated_at: sqlDate(`${row}.updated_at`),
  deleted_at: sqlDate(`${row}.deleted_at`),
});

const timeHistoryFieldsSql = (sources: TimeJsonSources): SqlOf<TimeHistoryJson> => ({
  ...timeFieldsSql(sources),
  changed_by: sources.usernameOf(`${sources.row}.changed_by`),
  // A revision was made when it was updated, the first one when it was created.
  changed_at: sqlTimestamp(`coalesce(${sources.row}.updated_at, ${sources.row}.created_at)`),
});

/**
 * SQL of a time's API JSON (FROM times t), with `parents` — its revisions newest first,
 * read FROM time_revisions r by `revisions`, each exactly as it was once served — when
 * asked for (SPEC §5).
 */
export function timeJsonSql(
  current: TimeJsonSources,
  revisions: TimeJsonSources,
  withParents: boolean,
): string {
  if (!withParents) return jsonObjectSql(timeFieldsSql(current));
  const parents = `(SELECT json_group_array(${jsonObjectSql(timeFieldsSql(revisions))}
      ORDER BY r.revision DESC) FROM time_revisions r WHERE r.time_id = t.id)`;
  return jsonObjectSql<Time>({
    ...timeFieldsSql(current),
    parents: `json(${parents})`,
  });
}

/**
 * SQL of a time's history (FROM times t): a JSON array of every revision, the current
 * one first, then those of time_revisions r newest first, each a TimeHistoryJson.
 */
export function timeHistorySql(current: TimeJsonSources, revisions: TimeJsonSources): string {
  return `(SELECT json_group_array(json(h.revision) ORDER BY h.n DESC) FROM (
      SELECT ${jsonObjectSql(timeHistoryFieldsSql(current))} AS revision, t.revision AS n
      UNION ALL
      SELECT ${jsonObjectSql(timeHistoryFieldsSql(revisions))}, r.revision
        FROM time_revisions r WHERE r.time_id = t.id) h)`;
}

/** A time as the list and single queries return it: its API JSON. */
export interface TimeRow {
  json: string;
}

/** The response body of a time row, sent as SQLite wrote it. */
export const timeJsonText = (row: TimeRow) => new JsonText(row.json);

export const timeText = (row: TimeRow) => row.json;

/** The columns of GET /times as CSV (`format=csv`). */
export const TIME_CSV_HEADER = [
  'uuid',
  'date_worked',
  'user',
  'user_name',
  'project',
  'project_name',
  'project_slugs',
  'activities',
  'duration_seconds',
  'hours',
  'notes',
  'issue_uri',
  'created_at',
  'updated_at',
  'deleted_at',
  'revision',
  // Extensions of the entry (issues 31, 32), last so that the columns before them keep
  // their places.
  'start_time',
  'status',
] as const;

/**
 * The names a CSV shows beside usernames and slugs, for people reading it in a
 * spreadsheet: display names by lower-case username, project names by the project's
 * slugs joined with spaces (as `project_slugs`; a freed slug may name two projects).
 */
export interface CsvNames {
  users: ReadonlyMap<string, string>;
  projects: ReadonlyMap<string, string>;
}

/**
 * A listed time's CSV cells, from the JSON text SQLite wrote for it, so CSV and JSON
 * cannot disagree: `project` is the first slug, lists are joined with spaces, `hours`
 * has two decimals; the user's display name and the project's name beside them (empty
 * when there is none); `status` is the entry's week part's. `parents` (include_revisions)
 * has no column.
 */
export function timeCsvCells(json: string, names: CsvNames): (string | number | null)[] {
  // `status`: its week part's (issue 32), added to the JSON for CSV only (times/store.ts).
  const t = JSON.parse(json) as TimeJson & { status?: string };
  return [
    t.uuid,
    t.date_worked,
    t.user,
    names.users.get(t.user.toLowerCase()) ?? null,
    t.project[0] ?? null,
    names.projects.get(t.project.join(' ')) ?? null,
    t.project.join(' '),
    t.activities.join(' '),
    t.duration,
    hoursText(t.duration),
    t.notes,
    t.issue_uri,
    t.created_at,
    t.updated_at,
    t.deleted_at,
    t.revision,
    t.start_time,
    t.status ?? 'open',
  ];
}
