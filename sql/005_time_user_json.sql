-- Issue 20: one user's month read as one short range of pages.
--
-- A user's entries are spread among everyone's in `times` and `time_json` (ids in the
-- order entries were made), so listing a month of ~550 entries fetched ~1,100 pages, one
-- table row and one time_json row per entry. This table keeps what that list needs —
-- visibility (project_id), deletion, the list order and the stored JSON — clustered by
-- (user_id, date_worked): a month is ~45 neighbouring pages. A second copy of the stored
-- JSON, kept beside time_json rather than instead of it: a lookup by primary key in this
-- wider tree is slower than time_json's rowid, and single entries and the whole list
-- (ordered by last change) look up one entry at a time.
--
-- Derived data like time_json, never exported: the triggers below keep its keys, every
-- write of an entry rewrites its other columns from times and time_json in the same
-- transaction (times/json-store.ts refresh), and a NULL json is to be computed, exactly
-- when time_json's is. `admin check` compares every row with times and time_json.
CREATE TABLE time_user_json (
  user_id     INTEGER NOT NULL,
  date_worked TEXT NOT NULL,
  time_id     INTEGER NOT NULL,
  project_id  INTEGER NOT NULL,
  deleted_at  INTEGER,
  -- coalesce(updated_at, created_at): with uuid, the list order (times_order)
  changed_at  INTEGER NOT NULL,
  uuid        TEXT NOT NULL,
  json        TEXT,
  PRIMARY KEY (user_id, date_worked, time_id)
) STRICT, WITHOUT ROWID;

-- Every entry has its row from its first moment, whoever inserts it (as time_json's).
CREATE TRIGGER times_user_json_row AFTER INSERT ON times BEGIN
  INSERT INTO time_user_json (user_id, date_worked, time_id, project_id, deleted_at,
    changed_at, uuid)
  VALUES (NEW.user_id, NEW.date_worked, NEW.id, NEW.project_id, NEW.deleted_at,
    coalesce(NEW.updated_at, NEW.created_at), NEW.uuid);
END;

-- An entry moved to another user or day moves with its key; refresh writes the rest.
CREATE TRIGGER times_user_json_key AFTER UPDATE OF user_id, date_worked ON times
WHEN OLD.user_id IS NOT NEW.user_id OR OLD.date_worked IS NOT NEW.date_worked BEGIN
  UPDATE time_user_json SET user_id = NEW.user_id, date_worked = NEW.date_worked
  WHERE user_id = OLD.user_id AND date_worked = OLD.date_worked AND time_id = OLD.id;
END;

-- Written in key order, so the pages are full and a user's month lies on neighbouring ones.
INSERT INTO time_user_json (user_id, date_worked, time_id, project_id, deleted_at, changed_at,
  uuid, json)
SELECT t.user_id, t.date_worked, t.id, t.project_id, t.deleted_at,
  coalesce(t.updated_at, t.created_at), t.uuid, j.json
FROM times t LEFT JOIN time_json j ON j.time_id = t.id
ORDER BY t.user_id, t.date_worked, t.id;
