-- Issue 30: a time entry's API JSON is no longer stored; reads write it from small derived
-- rows that triggers keep exact in the transaction of every write, whoever writes.
--
-- time_json (sql/004) and time_user_json (sql/005, 007) kept the same ~290 bytes of JSON
-- per entry twice (730 MiB with their indexes on the 1,000,000-entry benchmark, 70 % of
-- the file), and were kept right by the server's own calls: a write by another process
-- (the sqlite3 shell, `admin import`) left them wrong for good, and renaming a project's
-- or an activity's slug rewrote every entry that showed it.
--
-- Now:
-- * time_user_rows: each entry's own fields, clustered by (user, month, last change,
--   uuid) so that one user's month is one range of neighbouring pages already in list
--   order, with the values JSON shows that are costly to write per read (the dates, the
--   quoted notes and issue URI) written once, here, by the triggers. What an entry
--   borrows from other rows (its username, its project's slugs, its activities' slugs)
--   is not copied: reads join it from the three small tables below. So a rename touches
--   one small row, never the entries.
-- * project_slug_lists: each project's slugs as the JSON array entries show.
-- * activity_sets: each set of activity ids some entry has, with its slugs as entries show
--   them (an activity the old reference server deleted has no slug and is left out).
--   A benchmark instance of 1,000,000 entries over 30 activities has 465 sets.
--
-- Derived data, never exported; `admin check` compares every row with the entries and
-- every entry's JSON with a fresh computation from the plain tables (times/json-sql.ts).
--
-- The schema must stay readable by the sqlite3 shell an operator has (Debian 12 ships
-- 3.40): an aggregate's own ORDER BY (3.44) in a trigger would make the whole file a
-- "malformed database schema" to it, so ordered arrays come from ordered subqueries.
DROP TRIGGER times_json_row;
DROP TRIGGER times_user_json_row;
DROP TRIGGER times_user_json_key;
DROP TABLE time_user_json;
DROP TABLE time_json;

CREATE TABLE project_slug_lists (
  project_id INTEGER PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  json       TEXT NOT NULL
) STRICT;

CREATE TABLE activity_sets (
  id   INTEGER PRIMARY KEY,
  ids  TEXT NOT NULL UNIQUE, -- JSON array of activity ids, ascending
  json TEXT NOT NULL         -- JSON array of their slugs, as entries show them
) STRICT;

CREATE TABLE time_user_rows (
  user_id         INTEGER NOT NULL,
  month           TEXT NOT NULL,    -- YYYY-MM of date_worked
  changed_at      INTEGER NOT NULL, -- coalesce(updated_at, created_at): with uuid, the list order
  uuid            TEXT NOT NULL,
  date_worked     TEXT NOT NULL,
  time_id         INTEGER NOT NULL,
  project_id      INTEGER NOT NULL,
  deleted_at      INTEGER,
  activity_set_id INTEGER NOT NULL,
  revision        INTEGER NOT NULL,
  duration        INTEGER NOT NULL,
  -- As JSON text, ready to be written into the entry's JSON:
  issue_uri       TEXT NOT NULL,
  notes           TEXT NOT NULL,
  created         TEXT NOT NULL,
  updated         TEXT NOT NULL,
  deleted         TEXT NOT NULL,
  PRIMARY KEY (user_id, month, changed_at, uuid)
) STRICT, WITHOUT ROWID;

-- Projects' slug lists: every project has one from its first moment.
INSERT INTO project_slug_lists (project_id, json)
SELECT p.id, (SELECT json_group_array(slug) FROM (SELECT slug FROM project_slugs
  WHERE project_id = p.id ORDER BY position))
FROM projects p;

CREATE TRIGGER projects_slug_list_row AFTER INSERT ON projects BEGIN
  INSERT OR REPLACE INTO project_slug_lists (project_id, json) VALUES (NEW.id, '[]');
END;

CREATE TRIGGER project_slugs_list_insert AFTER INSERT ON project_slugs BEGIN
  UPDATE project_slug_lists SET json = (SELECT json_group_array(slug)
    FROM (SELECT slug FROM project_slugs WHERE project_id = NEW.project_id ORDER BY position))
  WHERE project_id = NEW.project_id;
END;

CREATE TRIGGER project_slugs_list_update AFTER UPDATE ON project_slugs BEGIN
  UPDATE project_slug_lists SET json = (SELECT json_group_array(slug) FROM (SELECT slug
    FROM project_slugs WHERE project_id = project_slug_lists.project_id ORDER BY position))
  WHERE project_id IN (OLD.project_id, NEW.project_id);
END;

CREATE TRIGGER project_slugs_list_delete AFTER DELETE ON project_slugs BEGIN
  UPDATE project_slug_lists SET json = (SELECT json_group_array(slug)
    FROM (SELECT slug FROM project_slugs WHERE project_id = OLD.project_id ORDER BY position))
  WHERE project_id = OLD.project_id;
END;

-- Activity sets: the empty one (id 0), then every set an entry has.
INSERT INTO activity_sets (id, ids, json) VALUES (0, '[]', '[]');
INSERT OR IGNORE INTO activity_sets (ids, json)
SELECT ids, (SELECT json_group_array(slug) FROM (SELECT a.slug FROM json_each(ids) j
  JOIN activities a ON a.id = j.value WHERE a.slug <> '' ORDER BY a.slug))
FROM (SELECT DISTINCT (SELECT json_group_array(activity_id) FROM (SELECT activity_id
  FROM time_activities WHERE time_id = t.id ORDER BY activity_id)) AS ids FROM times t);

-- A renamed activity (or one whose slug the old server emptied) shows in its sets.
CREATE TRIGGER activities_sets_slug AFTER UPDATE OF slug ON activities
WHEN OLD.slug IS NOT NEW.slug BEGIN
  UPDATE activity_sets SET json = (SELECT json_group_array(slug) FROM (SELECT a.slug
    FROM json_each(activity_sets.ids) j JOIN activities a ON a.id = j.value WHERE a.slug <> ''
    ORDER BY a.slug))
  WHERE id IN (SELECT s.id FROM activity_sets s, json_each(s.ids) j WHERE j.value = NEW.id);
END;

-- The entries' rows, written in key order so that the pages are full.
INSERT INTO time_user_rows (user_id, month, changed_at, uuid, date_worked, time_id, project_id,
  deleted_at, activity_set_id, revision, duration, issue_uri, notes, created, updated, deleted)
SELECT t.user_id, substr(t.date_worked, 1, 7), coalesce(t.updated_at, t.created_at), t.uuid,
  t.date_worked, t.id, t.project_id, t.deleted_at,
  (SELECT s.id FROM activity_sets s WHERE s.ids = (SELECT json_group_array(activity_id) FROM (SELECT activity_id
    FROM time_activities WHERE time_id = t.id ORDER BY activity_id))),
  t.revision, t.duration, json_quote(t.issue_uri), json_quote(t.notes),
  json_quote(date(t.created_at / 1000.0, 'unixepoch')),
  json_quote(date(t.updated_at / 1000.0, 'unixepoch')),
  json_quote(date(t.deleted_at / 1000.0, 'unixepoch'))
FROM times t
ORDER BY t.user_id, substr(t.date_worked, 1, 7), coalesce(t.updated_at, t.created_at), t.uuid;

-- Every entry has its row from its first moment (its activities come next, below).
CREATE TRIGGER times_user_row_insert AFTER INSERT ON times BEGIN
  INSERT INTO time_user_rows (user_id, month, changed_at, uuid, date_worked, time_id,
    project_id, deleted_at, activity_set_id, revision, duration, issue_uri, notes, created,
    updated, deleted)
  VALUES (NEW.user_id, substr(NEW.date_worked, 1, 7), coalesce(NEW.updated_at, NEW.created_at),
    NEW.uuid, NEW.date_worked, NEW.id, NEW.project_id, NEW.deleted_at, 0, NEW.revision,
    NEW.duration, json_quote(NEW.issue_uri), json_quote(NEW.notes),
    json_quote(date(NEW.created_at / 1000.0, 'unixepoch')),
    json_quote(date(NEW.updated_at / 1000.0, 'unixepoch')),
    json_quote(date(NEW.deleted_at / 1000.0, 'unixepoch')));
END;

-- Any change of an entry rewrites its row, under its new key (another user, day or last
-- change moves it); its activity set stays.
CREATE TRIGGER times_user_row_update AFTER UPDATE ON times BEGIN
  UPDATE time_user_rows SET user_id = NEW.user_id, month = substr(NEW.date_worked, 1, 7),
    changed_at = coalesce(NEW.updated_at, NEW.created_at), uuid = NEW.uuid,
    date_worked = NEW.date_worked, time_id = NEW.id, project_id = NEW.project_id,
    deleted_at = NEW.deleted_at, revision = NEW.revision, duration = NEW.duration,
    issue_uri = json_quote(NEW.issue_uri), notes = json_quote(NEW.notes),
    created = json_quote(date(NEW.created_at / 1000.0, 'unixepoch')),
    updated = json_quote(date(NEW.updated_at / 1000.0, 'unixepoch')),
    deleted = json_quote(date(NEW.deleted_at / 1000.0, 'unixepoch'))
  WHERE user_id = OLD.user_id AND month = substr(OLD.date_worked, 1, 7)
    AND changed_at = coalesce(OLD.updated_at, OLD.created_at) AND uuid = OLD.uuid;
END;

-- Entries are never hard-deleted by the server; kept true should anything do it.
CREATE TRIGGER times_user_row_delete AFTER DELETE ON times BEGIN
  DELETE FROM time_user_rows
  WHERE user_id = OLD.user_id AND month = substr(OLD.date_worked, 1, 7)
    AND changed_at = coalesce(OLD.updated_at, OLD.created_at) AND uuid = OLD.uuid;
END;

-- An entry's activities changed: its row points at the set it has now (made if new).
CREATE TRIGGER time_activities_set_insert AFTER INSERT ON time_activities BEGIN
  INSERT INTO activity_sets (ids, json)
  SELECT ids, (SELECT json_group_array(slug) FROM (SELECT a.slug FROM json_each(ids) j
    JOIN activities a ON a.id = j.value WHERE a.slug <> '' ORDER BY a.slug))
  FROM (SELECT json_group_array(activity_id) AS ids FROM (SELECT activity_id FROM time_activities
    WHERE time_id = NEW.time_id ORDER BY activity_id))
  WHERE true ON CONFLICT (ids) DO NOTHING;
  UPDATE time_user_rows SET activity_set_id = (SELECT s.id FROM activity_sets s
    WHERE s.ids = (SELECT json_group_array(activity_id) FROM (SELECT activity_id
      FROM time_activities WHERE time_id = NEW.time_id ORDER BY activity_id)))
  WHERE (user_id, month, changed_at, uuid) = (SELECT user_id, substr(date_worked, 1, 7),
    coalesce(updated_at, created_at), uuid FROM times WHERE id = NEW.time_id);
END;

CREATE TRIGGER time_activities_set_delete AFTER DELETE ON time_activities BEGIN
  INSERT INTO activity_sets (ids, json)
  SELECT ids, (SELECT json_group_array(slug) FROM (SELECT a.slug FROM json_each(ids) j
    JOIN activities a ON a.id = j.value WHERE a.slug <> '' ORDER BY a.slug))
  FROM (SELECT json_group_array(activity_id) AS ids FROM (SELECT activity_id FROM time_activities
    WHERE time_id = OLD.time_id ORDER BY activity_id))
  WHERE true ON CONFLICT (ids) DO NOTHING;
  UPDATE time_user_rows SET activity_set_id = (SELECT s.id FROM activity_sets s
    WHERE s.ids = (SELECT json_group_array(activity_id) FROM (SELECT activity_id
      FROM time_activities WHERE time_id = OLD.time_id ORDER BY activity_id)))
  WHERE (user_id, month, changed_at, uuid) = (SELECT user_id, substr(date_worked, 1, 7),
    coalesce(updated_at, created_at), uuid FROM times WHERE id = OLD.time_id);
END;

CREATE TRIGGER time_activities_set_update AFTER UPDATE ON time_activities BEGIN
  INSERT INTO activity_sets (ids, json)
  SELECT ids, (SELECT json_group_array(slug) FROM (SELECT a.slug FROM json_each(ids) j
    JOIN activities a ON a.id = j.value WHERE a.slug <> '' ORDER BY a.slug))
  FROM (SELECT json_group_array(activity_id) AS ids FROM (SELECT time_id, activity_id FROM time_activities
    WHERE time_id IN (OLD.time_id, NEW.time_id) ORDER BY time_id, activity_id) GROUP BY time_id)
  WHERE true ON CONFLICT (ids) DO NOTHING;
  UPDATE time_user_rows SET activity_set_id = (SELECT s.id FROM activity_sets s
    WHERE s.ids = (SELECT json_group_array(activity_id) FROM (SELECT activity_id
      FROM time_activities WHERE time_id = time_user_rows.time_id ORDER BY activity_id)))
  WHERE (user_id, month, changed_at, uuid) IN (SELECT user_id, substr(date_worked, 1, 7),
    coalesce(updated_at, created_at), uuid FROM times WHERE id IN (OLD.time_id, NEW.time_id));
END;
