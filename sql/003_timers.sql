-- Running timers (issue 15, part 3): at most one per user, kept here so that it survives
-- a restart and shows on every device. Stopping one turns it into a time entry and
-- deletes the row; nothing else refers to it, so it has no history.
CREATE TABLE timers (
  user_id      INTEGER PRIMARY KEY REFERENCES users (id),
  project_id   INTEGER NOT NULL REFERENCES projects (id),
  -- JSON array of activity ids as sent at start; [] = the project's default activity at stop
  activity_ids TEXT NOT NULL DEFAULT '[]',
  notes        TEXT,
  issue_uri    TEXT,
  date_worked  TEXT NOT NULL,
  -- ms since the epoch (UTC)
  started_at   INTEGER NOT NULL
) STRICT;
