// A project row as the store reads it → the API object (SPEC §4.1, §5).
import { formatDate } from '../dates';
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
  /** JSON object username → [member, spectator, manager] as 0/1. */
  users: string;
  /** JSON array of earlier revisions, newest first; only when revisions were asked for. */
  parents?: string;
}

interface ProjectRevision {
  revision: number;
  name: string;
  uri: string | null;
  owner: string | null;
  default_activity: string | null;
  slugs: string[];
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
}

// fromEntries defines own properties: `out[name] = …` would set the prototype for a
// user named `__proto__` instead of listing them.
const toUsersJson = (users: string): Record<string, ProjectRole> =>
  Object.fromEntries(
    Object.entries(JSON.parse(users) as Record<string, [number, number, number]>).map(
      ([name, [member, spectator, manager]]) => [
        name,
        { member: member === 1, spectator: spectator === 1, manager: manager === 1 },
      ],
    ),
  );

export function toProjectJson(row: ProjectRow) {
  const json = {
    name: row.name,
    slugs: JSON.parse(row.slugs) as string[],
    uri: row.uri,
    owner: row.owner,
    default_activity: row.default_activity,
    users: toUsersJson(row.users),
    uuid: row.uuid,
    revision: row.revision,
    created_at: formatDate(row.created_at),
    updated_at: formatDate(row.updated_at),
    deleted_at: formatDate(row.deleted_at),
  };
  if (row.parents === undefined) return json;
  // Parents carry no users map (SPEC §4.1).
  const parents = (JSON.parse(row.parents) as ProjectRevision[]).map((p) => ({
    name: p.name,
    slugs: p.slugs,
    uri: p.uri,
    owner: p.owner,
    default_activity: p.default_activity,
    uuid: row.uuid,
    revision: p.revision,
    created_at: formatDate(p.created_at),
    updated_at: formatDate(p.updated_at),
    deleted_at: formatDate(p.deleted_at),
  }));
  return { ...json, parents };
}
