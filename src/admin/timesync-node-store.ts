// The database of the old reference server (timesync-node, SPEC §10), read-only: its
// schema, the check that a file has it, and the queries the migration reads it with.
// One row per revision (same uuid; `newest` marks the current one), dates in ms,
// booleans 0/1.
import { existsSync } from 'node:fs';
import type { Db } from '../db/open';
import { CliError, openReadOnlyChecked, refuseDirectory } from './cli';

/** The tables and columns the migration reads; a file lacking any is not such a database. */
const OLD_SCHEMA: Record<string, readonly string[]> = {
  users: [
    'id',
    'username',
    'password',
    'display_name',
    'email',
    'site_spectator',
    'site_manager',
    'site_admin',
    'active',
    'created_at',
    'updated_at',
    'deleted_at',
    'meta',
  ],
  activities: [
    'id',
    'name',
    'slug',
    'created_at',
    'updated_at',
    'deleted_at',
    'uuid',
    'revision',
    'newest',
  ],
  projects: [
    'id',
    'name',
    'uri',
    'default_activity',
    'created_at',
    'updated_at',
    'deleted_at',
    'uuid',
    'revision',
    'newest',
  ],
  times: [
    'id',
    'duration',
    'user',
    'project',
    'notes',
    'issue_uri',
    'date_worked',
    'created_at',
    'updated_at',
    'deleted_at',
    'uuid',
    'revision',
    'newest',
  ],
  projectslugs: ['id', 'name', 'project'],
  timesactivities: ['time', 'activity'],
  userroles: ['project', 'user', 'manager', 'member', 'spectator'],
};

/** SQLite hands booleans back as stored: 0/1, sometimes '0'/'1' or 'true'/'false'. */
export type OldBool = number | string | null;

export interface OldUser {
  id: number;
  username: string;
  password: string | null;
  display_name: string | null;
  email: string | null;
  site_spectator: OldBool;
  site_manager: OldBool;
  site_admin: OldBool;
  active: OldBool;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
  meta: string | null;
}

/** What every revisioned row has. */
export interface OldRevisionRow {
  id: number;
  uuid: string | null;
  revision: number | null;
  newest: OldBool;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
}

export interface OldActivity extends OldRevisionRow {
  name: string;
  slug: string | null;
}

export interface OldProject extends OldRevisionRow {
  name: string;
  uri: string | null;
  default_activity: string | null;
}

export interface OldTime extends OldRevisionRow {
  duration: number;
  user: number;
  project: string;
  notes: string | null;
  issue_uri: string | null;
  date_worked: number | null;
}

export interface OldProjectSlug {
  name: string;
  project: number;
}

export interface OldUserRole {
  project: number;
  user: number;
  manager: OldBool;
  member: OldBool;
  spectator: OldBool;
}

/** Opens the old database read-only, after checking that it has the old schema. */
export function openTimesyncNodeDatabase(file: string) {
  if (!existsSync(file)) throw new CliError(`no file ${file}`);
  refuseDirectory(file, 'a SQLite file');
  const db = openReadOnlyChecked(file, 'not a SQLite database', (d) => assertOldSchema(d, file));
  return createTimesyncNodeStore(db);
}

function assertOldSchema(db: Db, file: string): void {
  const columnsOf = db.prepare('SELECT name FROM pragma_table_info(?)').pluck();
  for (const [table, wanted] of Object.entries(OLD_SCHEMA)) {
    const has = new Set(columnsOf.all(table) as string[]);
    if (has.size === 0) {
      throw new CliError(`${file} is not a timesync-node database: it has no table ${table}`);
    }
    const missing = wanted.filter((c) => !has.has(c));
    if (missing.length > 0) {
      throw new CliError(
        `${file} is not a timesync-node database: table ${table} lacks ${missing.join(', ')}`,
      );
    }
  }
}

// Revisions of one object are adjacent (ordered by uuid), oldest first.
const REVISION_ORDER = 'ORDER BY lower(uuid), revision, id';

export type TimesyncNodeStore = ReturnType<typeof createTimesyncNodeStore>;

function createTimesyncNodeStore(db: Db) {
  const timeActivities = db.prepare(
    `SELECT lower(a.uuid) FROM timesactivities ta JOIN activities a ON a.id = ta.activity
     WHERE ta.time = ? ORDER BY ta.rowid`,
  );
  return {
    close: () => db.close(),
    users: () =>
      db.prepare('SELECT * FROM users ORDER BY id').iterate() as IterableIterator<OldUser>,
    activities: () =>
      db
        .prepare(`SELECT * FROM activities ${REVISION_ORDER}`)
        .iterate() as IterableIterator<OldActivity>,
    projects: () =>
      db
        .prepare(`SELECT * FROM projects ${REVISION_ORDER}`)
        .iterate() as IterableIterator<OldProject>,
    times: () =>
      db.prepare(`SELECT * FROM times ${REVISION_ORDER}`).iterate() as IterableIterator<OldTime>,
    /** Slugs in the order they were added. */
    projectSlugs: () =>
      db
        .prepare('SELECT name, project FROM projectslugs ORDER BY id')
        .iterate() as IterableIterator<OldProjectSlug>,
    /** Permissions in the order they were written (a later row is the newer word). */
    userRoles: () =>
      db
        .prepare('SELECT project, user, manager, member, spectator FROM userroles ORDER BY rowid')
        .iterate() as IterableIterator<OldUserRole>,
    /** The uuids of a time row's activities (any revision of an activity names it). */
    activityUuidsOfTime: (timeRowId: number) =>
      timeActivities.pluck().all(timeRowId) as (string | null)[],
  };
}
