-- The web app, round 3 (issue 34).
--
-- Kept timesheet rows: a row added to a person's week (with "Add row" or "Copy last
-- week") and not yet filled stays across reloads and devices. A row is a project and a
-- set of activities (`activity_ids`: a JSON array of activity ids, ascending, '[]' for
-- none); `position` keeps the order they were added in. A row that has an entry of its
-- week is not shown (GET /v0/weeks/:username/:week/rows) and not stored again by the
-- next PUT. Owned by src/kept-rows/.
CREATE TABLE kept_rows (
  user_id      INTEGER NOT NULL REFERENCES users (id),
  week         TEXT NOT NULL,
  position     INTEGER NOT NULL,
  project_id   INTEGER NOT NULL REFERENCES projects (id),
  activity_ids TEXT NOT NULL,
  PRIMARY KEY (user_id, week, position)
) STRICT, WITHOUT ROWID;

-- Project history shows who was added to or removed from a project (issue 34): each
-- earlier revision keeps its users map as GET showed it then (JSON text, username →
-- {member, spectator, manager}). NULL for revisions made before this migration: their
-- map was not kept. TimeSync's `parents` still carry no users map (SPEC §4.1); only
-- GET /v0/projects/:uuid/history shows it.
ALTER TABLE project_revisions ADD COLUMN users TEXT;
