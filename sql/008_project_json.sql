-- Issue 20: each project's API JSON stored, as each time entry's is (sql/004).
--
-- GET /v0/projects/:slug had SQLite write the object on every read: its slugs, users map,
-- owner and default activity gathered by five subqueries (~11 µs in-process, and under
-- load a third of the request's CPU: 101 → 68 µs per request when read stored).
-- Derived data, never exported: projects/json-store.ts writes it, `admin check` compares
-- each stored text with a fresh computation. NULL means "to be computed": readers then
-- compute it as before, and the server fills it (at the end of its own writes, and in
-- the background for any other writer's).
CREATE TABLE project_json (
  project_id INTEGER PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  json       TEXT
) STRICT;

-- The projects whose JSON is to be computed, found without a scan (few, and usually none).
CREATE INDEX project_json_stale ON project_json (project_id) WHERE json IS NULL;

-- The triggers make the stored text stale in the transaction of every change that alters
-- what it shows, whoever writes (the API, `admin import`, the migration from
-- timesync-node): the project itself, its slugs, its users map, the slug or deletion of
-- its default activity, a username it shows. Whoever fills it computes it afresh.
CREATE TRIGGER projects_json_row AFTER INSERT ON projects BEGIN
  INSERT INTO project_json (project_id) VALUES (NEW.id);
END;

CREATE TRIGGER projects_json_stale AFTER UPDATE ON projects BEGIN
  UPDATE project_json SET json = NULL WHERE project_id = NEW.id;
END;

CREATE TRIGGER project_slugs_json_insert AFTER INSERT ON project_slugs BEGIN
  UPDATE project_json SET json = NULL WHERE project_id = NEW.project_id;
END;

CREATE TRIGGER project_slugs_json_update AFTER UPDATE ON project_slugs BEGIN
  UPDATE project_json SET json = NULL WHERE project_id IN (OLD.project_id, NEW.project_id);
END;

CREATE TRIGGER project_slugs_json_delete AFTER DELETE ON project_slugs BEGIN
  UPDATE project_json SET json = NULL WHERE project_id = OLD.project_id;
END;

CREATE TRIGGER project_users_json_insert AFTER INSERT ON project_users BEGIN
  UPDATE project_json SET json = NULL WHERE project_id = NEW.project_id;
END;

CREATE TRIGGER project_users_json_update AFTER UPDATE ON project_users BEGIN
  UPDATE project_json SET json = NULL WHERE project_id IN (OLD.project_id, NEW.project_id);
END;

CREATE TRIGGER project_users_json_delete AFTER DELETE ON project_users BEGIN
  UPDATE project_json SET json = NULL WHERE project_id = OLD.project_id;
END;

CREATE TRIGGER activities_project_json_stale AFTER UPDATE OF slug, deleted_at ON activities
WHEN OLD.slug IS NOT NEW.slug OR OLD.deleted_at IS NOT NEW.deleted_at BEGIN
  UPDATE project_json SET json = NULL
  WHERE project_id IN (SELECT id FROM projects WHERE default_activity_id = NEW.id);
END;

-- Usernames never change today; should one ever, the projects that show it follow.
CREATE TRIGGER users_project_json_stale AFTER UPDATE OF username ON users
WHEN OLD.username IS NOT NEW.username BEGIN
  UPDATE project_json SET json = NULL
  WHERE project_id IN (SELECT id FROM projects WHERE owner_id = NEW.id
    UNION SELECT project_id FROM project_users WHERE user_id = NEW.id);
END;

INSERT INTO project_json (project_id) SELECT id FROM projects;
