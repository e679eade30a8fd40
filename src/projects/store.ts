// SQL of projects: the current row in `projects` with its slugs (`project_slugs`) and
// users map (`project_users`), earlier revisions in `project_revisions` (SPEC §5), the
// current object's API JSON as stored (`project_json`, json-store.ts) or computed.
// The rows it reads become API objects in json.ts.
import { randomUUID } from 'node:crypto';
import { readList } from '../db/list-reader';
import type { Db } from '../db/open';
import type { ReaderPool } from '../db/readers';
import { columnsSql, jsonObjectSql, type SqlOf } from '../db/sql-json';
import { NO_ROLE, type ProjectRole } from '../policy';
import { usernameSql } from '../users/store';
import {
  type ProjectHistoryRow,
  type ProjectRow,
  projectHistoryParentSql,
  projectJsonSql,
  projectRevisionSql,
  projectText,
} from './json';

/** The stored fields of a project that a revision records (besides its slugs). */
export interface ProjectFields {
  name: string;
  uri: string | null;
  owner_id: number | null;
  default_activity_id: number | null;
}

export interface ProjectUserEntry extends ProjectRole {
  userId: number;
}

/**
 * A JSON array of a project's slugs in their order, for any project id expression (e.g.
 * `projectSlugsSql('t.project_id')` in a times query). A deleted project keeps the slugs
 * it had.
 */
export const projectSlugsSql = (projectId: string) =>
  `(SELECT json_group_array(s.slug ORDER BY s.position) FROM project_slugs s
    WHERE s.project_id = ${projectId})`;

/** A deleted default activity released its slug, so it shows as null. */
const liveActivitySlugSql = (activityId: string) =>
  `(SELECT slug FROM activities WHERE id = ${activityId} AND deleted_at IS NULL)`;

/** A 0/1 column as the text of a JSON true or false. */
const jsonBoolean = (column: string) => `iif(${column} = 1, 'true', 'false')`;

/** The users map in the API's shape: username → {member, spectator, manager}. */
const USERS_MAP = `(SELECT json_group_object(u.username, json('{"member":' || ${jsonBoolean('pu.member')}
    || ',"spectator":' || ${jsonBoolean('pu.spectator')} || ',"manager":' || ${jsonBoolean('pu.manager')}
    || '}') ORDER BY u.username)
  FROM project_users pu JOIN users u ON u.id = pu.user_id WHERE pu.project_id = p.id)`;

/** The current revision's API object computed from its rows (FROM projects p), as JSON text. */
export const COMPUTED_PROJECT_JSON = jsonObjectSql(
  projectJsonSql({
    usernameOf: usernameSql,
    activitySlugOf: liveActivitySlugSql,
    slugs: projectSlugsSql('p.id'),
    users: USERS_MAP,
  }),
);

/** A project's stored API JSON (FROM projects p): NULL while it is to be computed. */
const STORED = '(SELECT j.json FROM project_json j WHERE j.project_id = p.id)';

/** A project's API JSON as lists send it (FROM projects p): the stored text, else computed. */
const PROJECT_JSON = `coalesce(${STORED}, ${COMPUTED_PROJECT_JSON})`;

/** Each column of a ProjectRow (but its parents), typed so none can be forgotten. */
const COLUMNS = columnsSql<Omit<ProjectRow, 'parents'>>({
  id: 'p.id',
  uuid: 'p.uuid',
  name: 'p.name',
  uri: 'p.uri',
  owner_id: 'p.owner_id',
  default_activity_id: 'p.default_activity_id',
  deleted_at: 'p.deleted_at',
  json: PROJECT_JSON,
});

/** Every earlier revision `r` of `p` as one JSON array of `fields`, newest first. */
const parentsSql = <T>(fields: SqlOf<T>) => `(SELECT json_group_array(
    ${jsonObjectSql(fields)} ORDER BY r.revision DESC)
  FROM project_revisions r WHERE r.project_id = p.id) AS parents`;

/** Every earlier revision of `p` as one JSON array, newest first (no N+1 in lists). */
const PARENTS = parentsSql(projectRevisionSql(usernameSql, liveActivitySlugSql));

const columns = (withParents: boolean) => (withParents ? `${COLUMNS}, ${PARENTS}` : COLUMNS);

/** PARENTS as the history shows them: with the users map each kept (null: not kept). */
const HISTORY_PARENTS = parentsSql(projectHistoryParentSql(usernameSql, liveActivitySlugSql));

/** A project with what its history shows (ProjectHistoryRow), by uuid, deleted or not. */
const HISTORY_BY_UUID = `SELECT ${COLUMNS}, ${usernameSql('p.changed_by')} AS changed_by,
    coalesce(p.updated_at, p.created_at) AS changed_at, ${HISTORY_PARENTS}
  FROM projects p WHERE p.uuid = ?`;

/** The live project that holds a slug (parameter: the slug). */
const LIVE_BY_SLUG = `FROM projects p
  WHERE p.id = (SELECT project_id FROM project_slugs WHERE slug = ? AND live = 1)`;

/** Lists are ordered by last change, then uuid (SPEC §6). */
const ORDER = 'ORDER BY coalesce(p.updated_at, p.created_at), p.uuid';

export interface ProjectListFilters {
  includeDeleted: boolean;
  includeRevisions: boolean;
  /** user ids; a project matches if any of them has an entry in its users map */
  userIds: readonly number[];
}

/** The list query of GET /projects: fixed SQL fragments chosen by which filters are present. */
function projectListQuery(filters: ProjectListFilters) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (!filters.includeDeleted) where.push('p.deleted_at IS NULL');
  if (filters.userIds.length > 0) {
    where.push(`EXISTS (SELECT 1 FROM project_users pu WHERE pu.project_id = p.id
      AND pu.user_id IN (SELECT value FROM json_each(?)))`);
    params.push(JSON.stringify(filters.userIds));
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return {
    countSql: `SELECT count(*) FROM projects p ${clause}`,
    pageSql: `SELECT ${columns(filters.includeRevisions)} FROM projects p ${clause} ${ORDER}
      LIMIT ? OFFSET ?`,
    params,
  };
}

export type ProjectStore = ReturnType<typeof createProjectStore>;

export function createProjectStore(db: Db, readers: ReaderPool) {
  const liveBySlug = (withParents: boolean) =>
    db.prepare(`SELECT ${columns(withParents)} ${LIVE_BY_SLUG}`);
  const bySlug = liveBySlug(false);
  // The commonest read needs nothing but the answer: the stored text alone, by a small
  // statement (no row object); computed by a second one only when stale (NULL) or when
  // the slug is no live project's (then it answers nothing either).
  const storedJsonBySlug = db
    .prepare(`SELECT j.json FROM project_json j
      WHERE j.project_id = (SELECT project_id FROM project_slugs WHERE slug = ? AND live = 1)`)
    .pluck();
  const computedJsonBySlug = db.prepare(`SELECT ${COMPUTED_PROJECT_JSON} ${LIVE_BY_SLUG}`).pluck();
  const bySlugWithParents = liveBySlug(true);
  const byUuid = db.prepare(`SELECT ${COLUMNS} FROM projects p WHERE p.uuid = ?`);
  const historyByUuid = db.prepare(HISTORY_BY_UUID);
  const takenSlugs = db
    .prepare(`SELECT slug FROM project_slugs WHERE live = 1 AND project_id IS NOT ?
      AND slug IN (SELECT value FROM json_each(?))`)
    .pluck();
  const insert = db.prepare(`INSERT INTO projects (uuid, revision, name, uri, owner_id,
      default_activity_id, created_at, changed_by)
    VALUES (@uuid, 1, @name, @uri, @owner_id, @default_activity_id, @now, @changed_by)`);
  // With its users map as it is now, before the write changes it (history shows who was
  // added or removed; sql/017).
  const archive = db.prepare(`INSERT INTO project_revisions (project_id, revision, name, uri,
      owner_id, default_activity_id, slugs, created_at, updated_at, deleted_at, changed_by,
      users)
    SELECT p.id, p.revision, p.name, p.uri, p.owner_id, p.default_activity_id,
      ${projectSlugsSql('p.id')}, p.created_at, p.updated_at, p.deleted_at, p.changed_by,
      ${USERS_MAP}
    FROM projects p WHERE p.id = ?`);
  const update = db.prepare(`UPDATE projects SET name = @name, uri = @uri, owner_id = @owner_id,
      default_activity_id = @default_activity_id, revision = revision + 1,
      updated_at = @now, changed_by = @changed_by
    WHERE id = @id`);
  const undelete = db.prepare(`UPDATE projects SET deleted_at = NULL, revision = revision + 1,
      updated_at = ?, changed_by = ? WHERE id = ?`);
  const clearSlugs = db.prepare('DELETE FROM project_slugs WHERE project_id = ?');
  const addSlug = db.prepare(
    'INSERT INTO project_slugs (project_id, position, slug) VALUES (?, ?, ?)',
  );
  const clearUsers = db.prepare('DELETE FROM project_users WHERE project_id = ?');
  const addUser = db.prepare(`INSERT INTO project_users (project_id, user_id, member, spectator,
      manager) VALUES (?, ?, ?, ?, ?)`);
  const addMember = db.prepare(`INSERT INTO project_users (project_id, user_id, member, spectator,
      manager) VALUES (?, ?, 1, 0, 0) ON CONFLICT DO UPDATE SET member = 1`);
  const role = db.prepare(
    'SELECT member, spectator, manager FROM project_users WHERE project_id = ? AND user_id = ?',
  );
  const softDelete = db.prepare(
    'UPDATE projects SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  );
  const releaseSlugs = db.prepare('UPDATE project_slugs SET live = 0 WHERE project_id = ?');
  const usedByLiveTime = db
    .prepare('SELECT EXISTS (SELECT 1 FROM times WHERE project_id = ? AND deleted_at IS NULL)')
    .pluck();

  const liveIdBySlug = db
    .prepare('SELECT project_id FROM project_slugs WHERE slug = ? AND live = 1')
    .pluck();

  const bit = (b: boolean) => (b ? 1 : 0);

  return {
    /** The id of the live project that has this slug. */
    idOf: (slug: string) => liveIdBySlug.get(slug) as number | undefined,

    /** The live project that has this slug (a deleted one has released its slugs). */
    findBySlug: (slug: string, withParents = false) =>
      (withParents ? bySlugWithParents : bySlug).get(slug) as ProjectRow | undefined,

    /** The API JSON of the live project that holds this slug (GET without revisions). */
    findJsonBySlug: (slug: string) =>
      ((storedJsonBySlug.get(slug) as string | null | undefined) ?? computedJsonBySlug.get(slug)) as
        | string
        | undefined,

    /** The project with that uuid, live or deleted (a deleted one shows its last slugs). */
    findByUuid: (uuid: string) => byUuid.get(uuid) as ProjectRow | undefined,

    /** findByUuid with every revision and who made each (GET …/:uuid/history). */
    findHistory: (uuid: string) => historyByUuid.get(uuid) as ProjectHistoryRow | undefined,

    /** The list of GET /projects in a snapshot of its own. */
    openList: (filters: ProjectListFilters) =>
      readList(readers, projectListQuery(filters), projectText),

    /** Those of `slugs` that a live project other than `self` holds, in the order given. */
    takenSlugs(slugs: readonly string[], self?: number): string[] {
      const taken = new Set(takenSlugs.all(self ?? null, JSON.stringify(slugs)) as string[]);
      return slugs.filter((s) => taken.has(s));
    },

    insert(fields: ProjectFields, now: number, changedBy: number | null): number {
      const params = { ...fields, uuid: randomUUID(), now, changed_by: changedBy };
      return Number(insert.run(params).lastInsertRowid);
    },

    /** Copies the current row (with its slugs) to history, then writes the next revision. */
    revise(id: number, fields: ProjectFields, now: number, changedBy: number): void {
      archive.run(id);
      update.run({ ...fields, id, now, changed_by: changedBy });
    },

    /**
     * Copies the deleted project to history and makes it live as the next revision; the
     * caller gives it its slugs again (replaceSlugs), since deleting released them.
     */
    restore(id: number, now: number, changedBy: number): void {
      archive.run(id);
      undelete.run(now, changedBy, id);
    },

    replaceSlugs(id: number, slugs: readonly string[]): void {
      clearSlugs.run(id);
      for (const [position, slug] of slugs.entries()) addSlug.run(id, position, slug);
    },

    replaceUsers(id: number, entries: readonly ProjectUserEntry[]): void {
      clearUsers.run(id);
      for (const e of entries) {
        addUser.run(id, e.userId, bit(e.member), bit(e.spectator), bit(e.manager));
      }
    },

    /** Makes the user a member of the project, keeping any other role (an import's people). */
    addMember(id: number, userId: number): void {
      addMember.run(id, userId);
    },

    /** The user's entry in the project's users map (all false when absent). */
    roleOf(projectId: number, userId: number): ProjectRole {
      const row = role.get(projectId, userId) as
        | { member: number; spectator: number; manager: number }
        | undefined;
      if (!row) return NO_ROLE;
      return {
        member: row.member === 1,
        spectator: row.spectator === 1,
        manager: row.manager === 1,
      };
    },

    /** Marks the project deleted and frees its slugs for reuse; no new revision. */
    softDelete(id: number, now: number): boolean {
      if (softDelete.run(now, id).changes !== 1) return false;
      releaseSlugs.run(id);
      return true;
    },

    /** Whether a live time entry belongs to this project (then it may not be deleted). */
    isUsedByLiveTime: (id: number) => usedByLiveTime.get(id) === 1,
  };
}
