-- Issue 20: one user's month read in list order, with nothing to sort.
--
-- time_user_json (sql/005) was keyed (user_id, date_worked, time_id): a month was one
-- range of it, but in date order, and a list is in order of last change (then uuid), so
-- SQLite sorted its ~550 rows of ~300 bytes for every month read: a third of the
-- statement (~110 µs in-process on the 1,000,000-entry benchmark). Keyed (user_id,
-- month, changed_at, uuid), a calendar month is one range already in list order; a list
-- over other dates reads the range of its months and sorts it, as before. time_id gets
-- an index of its own: every write of an entry finds its row by it. (Revisions are never
-- listed from here, and an entry's uuid and created_at never change.)
--
-- The same rows, columns and meaning otherwise (derived data, never exported; `admin
-- check` compares every row with times and time_json).
DROP TRIGGER times_user_json_row;
DROP TRIGGER times_user_json_key;

CREATE TABLE time_user_json_by_month (
  user_id     INTEGER NOT NULL,
  month       TEXT NOT NULL,    -- YYYY-MM of date_worked
  changed_at  INTEGER NOT NULL, -- coalesce(updated_at, created_at): with uuid, the list order
  uuid        TEXT NOT NULL,
  date_worked TEXT NOT NULL,
  time_id     INTEGER NOT NULL,
  project_id  INTEGER NOT NULL,
  deleted_at  INTEGER,
  json        TEXT,
  PRIMARY KEY (user_id, month, changed_at, uuid)
) STRICT, WITHOUT ROWID;

-- Written in key order, so the pages are full and a user's month lies on neighbouring ones.
INSERT INTO time_user_json_by_month (user_id, month, changed_at, uuid, date_worked, time_id,
  project_id, deleted_at, json)
SELECT user_id, substr(date_worked, 1, 7), changed_at, uuid, date_worked, time_id,
  project_id, deleted_at, json
FROM time_user_json
ORDER BY user_id, substr(date_worked, 1, 7), changed_at, uuid;

DROP TABLE time_user_json;
ALTER TABLE time_user_json_by_month RENAME TO time_user_json;
CREATE UNIQUE INDEX time_user_json_time ON time_user_json (time_id);

-- Every entry has its row from its first moment, whoever inserts it (as time_json's).
CREATE TRIGGER times_user_json_row AFTER INSERT ON times BEGIN
  INSERT INTO time_user_json (user_id, month, changed_at, uuid, date_worked, time_id,
    project_id, deleted_at)
  VALUES (NEW.user_id, substr(NEW.date_worked, 1, 7), coalesce(NEW.updated_at, NEW.created_at),
    NEW.uuid, NEW.date_worked, NEW.id, NEW.project_id, NEW.deleted_at);
END;

-- The key follows the entry: another user or day, or a new last change (every update),
-- moves its row. Refresh (times/json-store.ts) writes the other columns in place: setting
-- a key column, even to its own value, would delete and insert the row again.
CREATE TRIGGER times_user_json_key AFTER UPDATE OF user_id, date_worked, updated_at ON times
WHEN OLD.user_id IS NOT NEW.user_id OR OLD.date_worked IS NOT NEW.date_worked
  OR OLD.updated_at IS NOT NEW.updated_at BEGIN
  UPDATE time_user_json SET user_id = NEW.user_id, month = substr(NEW.date_worked, 1, 7),
    date_worked = NEW.date_worked, changed_at = coalesce(NEW.updated_at, NEW.created_at)
  WHERE time_id = OLD.id;
END;
