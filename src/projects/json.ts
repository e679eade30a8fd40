// A project row as the store reads it → the API object (SPEC §4.1, §5): the one place its
// shape is written. Earlier revisions are read as a JSON array built in SQL from
// projectRevisionSql, whose keys the compiler checks against ProjectRevision.
import { formatDate } from '../dates';
import { type ChangeTimes, withParents } from '../db/revisions';
import type { SqlOf } from '../db/sql-json';
import type { ProjectRole } from '../policy';

export interface ProjectRow {
  id: number;
  uuid: string;
  revision: number;
  name: string;
  uri: string | null;
  owner_id: number | null;
  default_activity_id: number | null;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
  owner: string | null;
  default_activity: string | null;
  /** JSON array of the slugs in the order they were sent. */
  slugs: string;
  /** The users map as the API shows it: JSON object username → its ProjectRole. */
  users: string;
  /** Who made the current revision (username; null when not recorded). */
  changed_by: string | null;
  /** JSON array of earlier revisions, newest first; only when revisions were asked for. */
  parents?: string;
}

/** The fields a project shows, of its current row or of one of its revisions. */
export interface ProjectRevision extends ChangeTimes {
  revision: number;
  name: string;
  uri: string | null;
  owner: string | null;
  default_activity: string | null;
  slugs: string[];
  /** Who made this revision: shown with include_revisions only (issue 17). */
  changed_by: string | null;
}

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

// Parents carry no users map (SPEC §4.1); the current object shows it after its fields.
// Who made each revision (`changed_by`) is shown only with include_revisions, so every
// other answer keeps the TimeSync shape. Built key by key, not spread: this runs for
// every project read and listed.
function projectJson(
  uuid: string,
  p: Omit<ProjectRevision, 'slugs'>,
  slugs: string[],
  withWho: boolean,
  users?: Record<string, ProjectRole>,
) {
  const json: Record<string, unknown> = {
    name: p.name,
    slugs,
    uri: p.uri,
    owner: p.owner,
    default_activity: p.default_activity,
  };
  if (users !== undefined) json.users = users;
  json.uuid = uuid;
  json.revision = p.revision;
  json.created_at = formatDate(p.created_at);
  json.updated_at = formatDate(p.updated_at);
  json.deleted_at = formatDate(p.deleted_at);
  if (withWho) json.changed_by = p.changed_by;
  return json;
}

// Only the keys matter to withParents (the revision's SQL is the store's).
const REVISION_KEYS = projectRevisionSql(String, String);

export function toProjectJson(row: ProjectRow) {
  const withWho = row.parents !== undefined;
  // JSON.parse makes every username an own key, `__proto__` too.
  const users = JSON.parse(row.users) as Record<string, ProjectRole>;
  return withParents(
    projectJson(row.uuid, row, JSON.parse(row.slugs) as string[], withWho, users),
    row.parents,
    REVISION_KEYS,
    (p) => projectJson(row.uuid, p, p.slugs, true),
  );
}

export const projectText = (row: ProjectRow) => JSON.stringify(toProjectJson(row));
