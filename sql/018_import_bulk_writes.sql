-- Imports write their derived rows per batch (issue 31 §4): the three insert triggers that
-- keep the per-month totals (sql/006), the entries' rows (sql/009, sql/014) and their
-- activity sets (sql/009) did a third of an import's work, row by row — and the rows'
-- time_user_rows went in at random. An import batch (times/store.ts
-- createTimeImportStatements, insertBatch) now inserts the one row of bulk_writes first,
-- in its own write transaction; while that row is there the triggers leave the inserted
-- entries to the batch, which writes all their derived rows with one statement per table
-- (the same expressions as the triggers, time_user_rows in key order) and deletes the row
-- again, all before its COMMIT. SQLite has one writer at a time and readers see only
-- committed data, so no other connection, of this process or another (the server, the
-- sqlite3 shell), ever sees the row: their writes run the triggers as before. A batch
-- that fails rolls back with its row. `admin check` compares the derived rows with the
-- entries as before; a row left here would be a fault it names.
CREATE TABLE bulk_writes (
  id INTEGER PRIMARY KEY CHECK (id = 1)
) STRICT;

DROP TRIGGER times_month_totals_insert;
DROP TRIGGER times_user_row_insert;
DROP TRIGGER time_activities_set_insert;

CREATE TRIGGER times_month_totals_insert AFTER INSERT ON times
WHEN NOT EXISTS (SELECT 1 FROM bulk_writes) BEGIN
  INSERT INTO time_month_totals VALUES (substr(NEW.date_worked, 1, 7), NEW.project_id,
    NEW.user_id, iif(NEW.deleted_at IS NULL, NEW.duration, 0), NEW.deleted_at IS NULL,
    iif(NEW.deleted_at IS NULL, 0, NEW.duration), NEW.deleted_at IS NOT NULL)
  ON CONFLICT DO UPDATE SET duration = duration + excluded.duration,
    entries = entries + excluded.entries,
    deleted_duration = deleted_duration + excluded.deleted_duration,
    deleted_entries = deleted_entries + excluded.deleted_entries;
END;

CREATE TRIGGER times_user_row_insert AFTER INSERT ON times
WHEN NOT EXISTS (SELECT 1 FROM bulk_writes) BEGIN
  INSERT INTO time_user_rows (user_id, month, changed_at, uuid, date_worked, time_id,
    project_id, deleted_at, activity_set_id, revision, duration, issue_uri, notes, created,
    updated, deleted, start_time)
  VALUES (NEW.user_id, substr(NEW.date_worked, 1, 7), coalesce(NEW.updated_at, NEW.created_at),
    NEW.uuid, NEW.date_worked, NEW.id, NEW.project_id, NEW.deleted_at, 0, NEW.revision,
    NEW.duration, json_quote(NEW.issue_uri), json_quote(NEW.notes),
    json_quote(date(NEW.created_at / 1000.0, 'unixepoch')),
    json_quote(date(NEW.updated_at / 1000.0, 'unixepoch')),
    json_quote(date(NEW.deleted_at / 1000.0, 'unixepoch')), json_quote(NEW.start_time));
END;

CREATE TRIGGER time_activities_set_insert AFTER INSERT ON time_activities
WHEN NOT EXISTS (SELECT 1 FROM bulk_writes) BEGIN
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
