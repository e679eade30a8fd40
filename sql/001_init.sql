-- The whole schema of a fresh instance. Times are integer milliseconds since the epoch
-- (UTC) so that ordering is exact; responses show only the date. Booleans are 0/1.
-- "Current row + history table" per revisioned object (SPEC §5, §8): the current state
-- lives in projects/activities/times, earlier revisions in *_revisions, append-only.

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

-- Usernames are ASCII (SPEC §1), so NOCASE gives case-insensitive matching and
-- uniqueness while the stored value keeps the case used at creation. Deleted users keep
-- their row: a username is never reusable.
CREATE TABLE users (
  id             INTEGER PRIMARY KEY,
  username       TEXT NOT NULL COLLATE NOCASE UNIQUE,
  display_name   TEXT,
  password_hash  TEXT,
  email          TEXT,
  meta           TEXT,
  site_spectator INTEGER NOT NULL DEFAULT 0 CHECK (site_spectator IN (0, 1)),
  site_manager   INTEGER NOT NULL DEFAULT 0 CHECK (site_manager IN (0, 1)),
  site_admin     INTEGER NOT NULL DEFAULT 0 CHECK (site_admin IN (0, 1)),
  active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER,
  deleted_at     INTEGER
) STRICT;
CREATE INDEX users_order ON users (coalesce(updated_at, created_at), username);

-- Org roles are hard-deleted; a role still held cannot be deleted (RESTRICT).
CREATE TABLE org_roles (
  id   INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE user_org_roles (
  user_id INTEGER NOT NULL REFERENCES users (id),
  role_id INTEGER NOT NULL REFERENCES org_roles (id) ON DELETE RESTRICT,
  PRIMARY KEY (user_id, role_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_org_roles_role ON user_org_roles (role_id);

-- changed_by: the user who made that revision (audit trail; not in API responses).
-- NULL only for data imported from a source that did not record it.
CREATE TABLE activities (
  id         INTEGER PRIMARY KEY,
  uuid       TEXT NOT NULL UNIQUE,
  revision   INTEGER NOT NULL,
  name       TEXT NOT NULL,
  slug       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER,
  deleted_at INTEGER,
  changed_by INTEGER REFERENCES users (id)
) STRICT;
-- Deleting releases the slug: only live activities must have distinct slugs.
CREATE UNIQUE INDEX activities_live_slug ON activities (slug) WHERE deleted_at IS NULL;
CREATE INDEX activities_order ON activities (coalesce(updated_at, created_at), uuid);

CREATE TABLE activity_revisions (
  activity_id INTEGER NOT NULL REFERENCES activities (id),
  revision    INTEGER NOT NULL,
  name        TEXT NOT NULL,
  slug        TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER,
  deleted_at  INTEGER,
  changed_by  INTEGER REFERENCES users (id),
  PRIMARY KEY (activity_id, revision)
) STRICT, WITHOUT ROWID;

CREATE TABLE projects (
  id                  INTEGER PRIMARY KEY,
  uuid                TEXT NOT NULL UNIQUE,
  revision            INTEGER NOT NULL,
  name                TEXT NOT NULL,
  uri                 TEXT,
  owner_id            INTEGER REFERENCES users (id),
  default_activity_id INTEGER REFERENCES activities (id),
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER,
  deleted_at          INTEGER,
  changed_by          INTEGER REFERENCES users (id)
) STRICT;
CREATE INDEX projects_order ON projects (coalesce(updated_at, created_at), uuid);

-- The current slugs of each project, in the order they were sent. `live` mirrors
-- "project not deleted" because a partial index cannot look at another table.
CREATE TABLE project_slugs (
  project_id INTEGER NOT NULL REFERENCES projects (id),
  position   INTEGER NOT NULL,
  slug       TEXT NOT NULL,
  live       INTEGER NOT NULL DEFAULT 1 CHECK (live IN (0, 1)),
  PRIMARY KEY (project_id, position)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX project_slugs_live ON project_slugs (slug) WHERE live = 1;

-- Earlier revisions of a project; slugs as a JSON array as they were then. The users
-- map is not revisioned (SPEC §4.1: parents carry no users map).
CREATE TABLE project_revisions (
  project_id          INTEGER NOT NULL REFERENCES projects (id),
  revision            INTEGER NOT NULL,
  name                TEXT NOT NULL,
  uri                 TEXT,
  owner_id            INTEGER REFERENCES users (id),
  default_activity_id INTEGER REFERENCES activities (id),
  slugs               TEXT NOT NULL,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER,
  deleted_at          INTEGER,
  changed_by          INTEGER REFERENCES users (id),
  PRIMARY KEY (project_id, revision)
) STRICT, WITHOUT ROWID;

CREATE TABLE project_users (
  project_id INTEGER NOT NULL REFERENCES projects (id),
  user_id    INTEGER NOT NULL REFERENCES users (id),
  member     INTEGER NOT NULL CHECK (member IN (0, 1)),
  spectator  INTEGER NOT NULL CHECK (spectator IN (0, 1)),
  manager    INTEGER NOT NULL CHECK (manager IN (0, 1)),
  PRIMARY KEY (project_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX project_users_user ON project_users (user_id, project_id);

CREATE TABLE times (
  id          INTEGER PRIMARY KEY,
  uuid        TEXT NOT NULL UNIQUE,
  revision    INTEGER NOT NULL,
  duration    INTEGER NOT NULL CHECK (duration BETWEEN 0 AND 2147483647),
  user_id     INTEGER NOT NULL REFERENCES users (id),
  project_id  INTEGER NOT NULL REFERENCES projects (id),
  date_worked TEXT NOT NULL,
  issue_uri   TEXT,
  notes       TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER,
  deleted_at  INTEGER,
  changed_by  INTEGER REFERENCES users (id)
) STRICT;
CREATE INDEX times_user_date ON times (user_id, date_worked);
CREATE INDEX times_project_date ON times (project_id, date_worked);
CREATE INDEX times_order ON times (coalesce(updated_at, created_at), uuid);

CREATE TABLE time_activities (
  time_id     INTEGER NOT NULL REFERENCES times (id),
  activity_id INTEGER NOT NULL REFERENCES activities (id),
  PRIMARY KEY (time_id, activity_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX time_activities_activity ON time_activities (activity_id, time_id);

-- Earlier revisions of a time entry; activity ids as a JSON array as they were then.
CREATE TABLE time_revisions (
  time_id      INTEGER NOT NULL REFERENCES times (id),
  revision     INTEGER NOT NULL,
  duration     INTEGER NOT NULL,
  user_id      INTEGER NOT NULL REFERENCES users (id),
  project_id   INTEGER NOT NULL REFERENCES projects (id),
  date_worked  TEXT NOT NULL,
  issue_uri    TEXT,
  notes        TEXT,
  activity_ids TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER,
  deleted_at   INTEGER,
  changed_by   INTEGER REFERENCES users (id),
  PRIMARY KEY (time_id, revision)
) STRICT, WITHOUT ROWID;

-- Failed logins per username (any case), shared by every process on this file.
CREATE TABLE login_failures (
  username          TEXT PRIMARY KEY COLLATE NOCASE,
  failures          INTEGER NOT NULL,
  window_started_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
