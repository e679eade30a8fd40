// A project row as the store reads it → the API object (SPEC §4.1, §5), whose shape is
// src/shapes/project.ts. The current revision's object is written by SQLite
// (projectJsonSql: json_object, whose text JSON.stringify would write the same), so a read
// or a list sends it as it is, with no object made per project; earlier revisions are read
// as a JSON array built in SQL from projectRevisionSql, whose keys the compiler checks
// against ProjectRevision (the shape's, with its times as stored), and mapped here.
import { formatDate, sqlDate } from '../dates';
import { type ChangeTimes, changedAt, withChange, withParents } from '../db/revisions';
import { parseSqlJsonArray, type SqlOf } from '../db/sql-json';
import { JsonText } from '../json-text';
import type {
  Project,
  ProjectHistoryRevision,
  ProjectRevision as ProjectRevisionJson,
} from '../shapes/project';

export interface ProjectRow {
  id: number;
  uuid: string;
  name: string;
  uri: string | null;
  owner_id: number | null;
  default_activity_id: number | null;
  deleted_at: number | null;
  /** The API object of the current revision, as JSON text (projectJsonSql). */
  json: string;
  /** JSON array of earlier revisions, newest first; only when revisions were asked for. */
  parents?: string;
}

/** A project row read for its history: who made the current revision and when. */
export interface ProjectHistoryRow extends ProjectRow {
  /** username; null when not recorded */
  changed_by: string | null;
  /** ms: when the current revision was made */
  changed_at: number;
  parents: string;
}

/** The API object of a project's current revision (SPEC §4.1): the TimeSync shape. */
export type ProjectJson = Omit<Project, 'parents'>;

/** The SQL of each part of the current object that is not a column of `projects p`. */
export interface ProjectJsonSources {
  usernameOf: (userId: string) => string;
  activitySlugOf: (activityId: string) => string;
  /** The project's slugs as a JSON array. */
  slugs: string;
  /** The users map in the API's shape, as a JSON object. */
  users: string;
}

/** The current revision's API object (FROM projects p) as SQL, keys in the API's order. */
export const projectJsonSql = (sources: ProjectJsonSources): SqlOf<ProjectJson> => ({
  name: 'p.name',
  slugs: `json(${sources.slugs})`,
  uri: 'p.uri',
  owner: sources.usernameOf('p.owner_id'),
  default_activity: sources.activitySlugOf('p.default_activity_id'),
  users: `json(${sources.users})`,
  uuid: 'p.uuid',
  revision: 'p.revision',
  created_at: sqlDate('p.created_at'),
  updated_at: sqlDate('p.updated_at'),
  deleted_at: sqlDate('p.deleted_at'),
});

/**
 * The fields a project shows, of its current row or of one of its revisions, as SQL reads
 * them: the times as stored (ms), no uuid (the project's); and who made it, which only the
 * history shows (issue 29), never `parents`.
 */
export type ProjectRevision = Omit<ProjectRevisionJson, 'uuid' | keyof ChangeTimes> &
  ChangeTimes & { changed_by: string | null };

/**
 * How SQL reads each field of a revision row `r` (project_revisions), given the SQL of a
 * user's name and of a live activity's slug (the store's).
 */
export const projectRevisionSql = (
  usernameOf: (id: string) => string,
  activitySlugOf: (id: string) => string,
): SqlOf<ProjectRevision> => ({
  revision: 'r.revision',
  name: 'r.name',
  uri: 'r.uri',
  owner: usernameOf('r.owner_id'),
  default_activity: activitySlugOf('r.default_activity_id'),
  slugs: 'json(r.slugs)',
  changed_by: usernameOf('r.changed_by'),
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
  deleted_at: 'r.deleted_at',
});

/** The users map, as GET shows it. */
type UsersMap = Project['users'];

/** A revision as the history reads it: with its users map, null when it was not kept. */
export type ProjectHistoryParent = ProjectRevision & { users: UsersMap | null };

/** projectRevisionSql and the users map the revision kept (sql/017; NULL before it). */
export const projectHistoryParentSql = (
  usernameOf: (id: string) => string,
  activitySlugOf: (id: string) => string,
): SqlOf<ProjectHistoryParent> => ({
  ...projectRevisionSql(usernameOf, activitySlugOf),
  users: 'json(r.users)',
});

// Parents carry no users map (SPEC §4.1), and are exactly what the revision's GET
// answered then: who made it is told by the history alone (issue 29).
const revisionJson = (uuid: string, p: ProjectRevision): ProjectRevisionJson => ({
  name: p.name,
  slugs: p.slugs,
  uri: p.uri,
  owner: p.owner,
  default_activity: p.default_activity,
  uuid,
  revision: p.revision,
  created_at: formatDate(p.created_at),
  updated_at: formatDate(p.updated_at),
  deleted_at: formatDate(p.deleted_at),
});

// Only the keys matter to withParents (the revision's SQL is the store's).
const REVISION_KEYS = projectRevisionSql(String, String);
const HISTORY_PARENT_KEYS = projectHistoryParentSql(String, String);

/** The response body of a project: SQLite's text as it is, unless revisions were asked for. */
export function toProjectJson(row: ProjectRow): JsonText | Project {
  if (row.parents === undefined) return new JsonText(row.json);
  const current = JSON.parse(row.json) as ProjectJson;
  return withParents(current, row.parents, REVISION_KEYS, (p) => revisionJson(row.uuid, p));
}

/**
 * GET /v0/projects/:uuid/history: every revision, newest first, as it was served, each
 * with who made it and when; the current one with its users map, earlier ones with the
 * map they had when it was kept (revisions made since sql/017: TimeSync keeps none).
 */
export function toProjectHistory(row: ProjectHistoryRow): ProjectHistoryRevision[] {
  const current = JSON.parse(row.json) as ProjectJson;
  const parents = parseSqlJsonArray(row.parents, HISTORY_PARENT_KEYS);
  return [
    withChange(current, row.changed_by, row.changed_at),
    ...parents.map((p) => {
      const json = revisionJson(row.uuid, p);
      // The users map where the revision kept it (made since sql/017).
      const shown = p.users === null ? json : { ...json, users: p.users };
      return withChange(shown, p.changed_by, changedAt(p));
    }),
  ];
}

/** The current slugs of a row, in the order they were sent (from its JSON, for writes). */
export const slugsOf = (row: ProjectRow): string[] => (JSON.parse(row.json) as ProjectJson).slugs;

/** A listed project's JSON text. */
export const projectText = (row: ProjectRow): string =>
  row.parents === undefined ? row.json : JSON.stringify(toProjectJson(row));
