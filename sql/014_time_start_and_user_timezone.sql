-- Issue 31, section 1: an optional start time on time entries, and a user's time zone.
--
-- times.start_time: the wall-clock time on date_worked when the work started, `HH:MM:SS`,
-- or NULL (every entry made before, and any a TimeSync client makes). Kept in history as
-- every other field of an entry (time_revisions.start_time).
ALTER TABLE times ADD COLUMN start_time TEXT
  CHECK (start_time IS NULL OR (start_time GLOB '[0-2][0-9]:[0-5][0-9]:[0-5][0-9]'
    AND start_time <= '23:59:59'));
ALTER TABLE time_revisions ADD COLUMN start_time TEXT;

-- users.timezone: an IANA time zone name (Europe/Berlin) or NULL (the server's). The
-- timer writes a start_time in it; importers take it as the default zone of a person.
ALTER TABLE users ADD COLUMN timezone TEXT;

-- The derived rows of sql/009 show the start time as JSON text, written by the triggers
-- like the entry's other fields ('null' or '"09:30:00"'). Every entry made before has no
-- start time, so 'null' is exact for each existing row, and adding the column with that
-- default rewrites none of them (an upgrade of 1,000,000 entries stays instant). The
-- triggers that write the rows are made again to write it.
ALTER TABLE time_user_rows ADD COLUMN start_time TEXT NOT NULL DEFAULT 'null';

DROP TRIGGER times_user_row_insert;
DROP TRIGGER times_user_row_update;

-- Every entry has its row from its first moment (its activities come next: sql/009).
CREATE TRIGGER times_user_row_insert AFTER INSERT ON times BEGIN
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
    deleted = json_quote(date(NEW.deleted_at / 1000.0, 'unixepoch')),
    start_time = json_quote(NEW.start_time)
  WHERE user_id = OLD.user_id AND month = substr(OLD.date_worked, 1, 7)
    AND changed_at = coalesce(OLD.updated_at, OLD.created_at) AND uuid = OLD.uuid;
END;
