-- Issue 15's year report: durations and counts of time entries per (month, project,
-- user), kept by triggers in the transaction of every write of an entry, whoever writes
-- it (the API, `admin import`, the migration from timesync-node, the benchmark's
-- generator). A report of everyone over whole months sums these few rows (~7,000 for a
-- year of the 1,000,000-entry benchmark) instead of grouping ~330,000 entries, which
-- sorting in a temporary B-tree made ~120 ms; the partial months at a range's edges are
-- still read from times_date (reports/store.ts). Derived data, never exported; `admin
-- check` compares it with a fresh computation. Live and deleted entries are kept apart
-- for include_deleted. A row may fall to zero entries; reports skip those.
CREATE TABLE time_month_totals (
  month            TEXT NOT NULL, -- YYYY-MM of date_worked
  project_id       INTEGER NOT NULL,
  user_id          INTEGER NOT NULL,
  duration         INTEGER NOT NULL, -- entries not deleted
  entries          INTEGER NOT NULL,
  deleted_duration INTEGER NOT NULL, -- deleted entries
  deleted_entries  INTEGER NOT NULL,
  PRIMARY KEY (month, project_id, user_id)
) STRICT, WITHOUT ROWID;

INSERT INTO time_month_totals
SELECT substr(date_worked, 1, 7), project_id, user_id,
  coalesce(sum(duration) FILTER (WHERE deleted_at IS NULL), 0),
  count(*) FILTER (WHERE deleted_at IS NULL),
  coalesce(sum(duration) FILTER (WHERE deleted_at IS NOT NULL), 0),
  count(*) FILTER (WHERE deleted_at IS NOT NULL)
FROM times GROUP BY 1, 2, 3;

CREATE TRIGGER times_month_totals_insert AFTER INSERT ON times BEGIN
  INSERT INTO time_month_totals VALUES (substr(NEW.date_worked, 1, 7), NEW.project_id,
    NEW.user_id, iif(NEW.deleted_at IS NULL, NEW.duration, 0), NEW.deleted_at IS NULL,
    iif(NEW.deleted_at IS NULL, 0, NEW.duration), NEW.deleted_at IS NOT NULL)
  ON CONFLICT DO UPDATE SET duration = duration + excluded.duration,
    entries = entries + excluded.entries,
    deleted_duration = deleted_duration + excluded.deleted_duration,
    deleted_entries = deleted_entries + excluded.deleted_entries;
END;

-- Only when what the totals count changes (an update of the notes alone does not).
CREATE TRIGGER times_month_totals_update
AFTER UPDATE OF duration, user_id, project_id, date_worked, deleted_at ON times
WHEN OLD.duration IS NOT NEW.duration OR OLD.user_id IS NOT NEW.user_id
  OR OLD.project_id IS NOT NEW.project_id OR OLD.date_worked IS NOT NEW.date_worked
  OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL)
BEGIN
  UPDATE time_month_totals
  SET duration = duration - iif(OLD.deleted_at IS NULL, OLD.duration, 0),
    entries = entries - (OLD.deleted_at IS NULL),
    deleted_duration = deleted_duration - iif(OLD.deleted_at IS NULL, 0, OLD.duration),
    deleted_entries = deleted_entries - (OLD.deleted_at IS NOT NULL)
  WHERE month = substr(OLD.date_worked, 1, 7) AND project_id = OLD.project_id
    AND user_id = OLD.user_id;
  INSERT INTO time_month_totals VALUES (substr(NEW.date_worked, 1, 7), NEW.project_id,
    NEW.user_id, iif(NEW.deleted_at IS NULL, NEW.duration, 0), NEW.deleted_at IS NULL,
    iif(NEW.deleted_at IS NULL, 0, NEW.duration), NEW.deleted_at IS NOT NULL)
  ON CONFLICT DO UPDATE SET duration = duration + excluded.duration,
    entries = entries + excluded.entries,
    deleted_duration = deleted_duration + excluded.deleted_duration,
    deleted_entries = deleted_entries + excluded.deleted_entries;
END;

-- Entries are never hard-deleted by the server; kept true should anything do it.
CREATE TRIGGER times_month_totals_delete AFTER DELETE ON times BEGIN
  UPDATE time_month_totals
  SET duration = duration - iif(OLD.deleted_at IS NULL, OLD.duration, 0),
    entries = entries - (OLD.deleted_at IS NULL),
    deleted_duration = deleted_duration - iif(OLD.deleted_at IS NULL, 0, OLD.duration),
    deleted_entries = deleted_entries - (OLD.deleted_at IS NOT NULL)
  WHERE month = substr(OLD.date_worked, 1, 7) AND project_id = OLD.project_id
    AND user_id = OLD.user_id;
END;
