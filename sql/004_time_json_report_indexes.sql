-- Issue 20 and issue 15's report figures: stored time JSON and covering report indexes.
--
-- Each time entry's API JSON as GET /v0/times shows it (issue 20), kept so that a list is
-- an index range read plus concatenation: SQLite writing every listed entry's JSON on
-- every read (slugs and usernames gathered per row) made one user's month ~6 ms.
-- Derived data, never exported: times/json-store.ts writes it, `admin check` compares
-- each stored text with a fresh computation. NULL means "to be computed": readers then
-- compute it as before, and the server fills it in the background (times/json-filler.ts).
CREATE TABLE time_json (
  time_id INTEGER PRIMARY KEY REFERENCES times (id) ON DELETE CASCADE,
  json    TEXT
) STRICT;

-- The entries whose JSON is to be computed, found without a scan (few, and usually none).
CREATE INDEX time_json_stale ON time_json (time_id) WHERE json IS NULL;

-- Every entry has its row from its first moment, whoever inserts it (the API, `admin
-- import`, the migration from timesync-node, the benchmark's generator).
CREATE TRIGGER times_json_row AFTER INSERT ON times BEGIN
  INSERT INTO time_json (time_id) VALUES (NEW.id);
END;

INSERT INTO time_json (time_id) SELECT id FROM times;

-- Reports (issue 15) read only these columns of the entries they sum, so both indexes
-- they use cover them: one user's month is an index range read with no table lookup,
-- and a year of everyone a range of times_date instead of a scan of the whole table.
DROP INDEX times_user_date;
CREATE INDEX times_user_date ON times (user_id, date_worked, project_id, duration, deleted_at);
CREATE INDEX times_date ON times (date_worked, project_id, user_id, duration, deleted_at);
