-- Issue 32: weekly submission, approval by project managers, and locked periods.
--
-- A week part is one person's entries on one project in one ISO week (`week` as
-- YYYY-Www, the key SQLite's strftime('%G-W%V', date_worked) gives an entry). A part with
-- no row is `open`: rows are made when a week is first submitted. While a part is
-- `submitted` or `approved` its entries cannot be written (error kind 14); `rejected`
-- parts are editable again, like open ones. Owned by src/approvals/.
CREATE TABLE week_parts (
  user_id      INTEGER NOT NULL REFERENCES users (id),
  project_id   INTEGER NOT NULL REFERENCES projects (id),
  week         TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('open', 'submitted', 'approved', 'rejected')),
  submitted_at INTEGER,                      -- ms; the last submission
  decided_by   INTEGER REFERENCES users (id), -- the last approve, reject or reopen
  decided_at   INTEGER,
  comment      TEXT,                          -- that decision's comment (a rejection's reason)
  PRIMARY KEY (user_id, project_id, week)
) STRICT, WITHOUT ROWID;
-- The pending parts (GET /v0/approvals?status=submitted, the navigation's count).
CREATE INDEX week_parts_status ON week_parts (status, week);

-- Every submission and decision, append-only (GET /v0/approvals/…/history).
CREATE TABLE week_part_decisions (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (id),
  project_id INTEGER NOT NULL REFERENCES projects (id),
  week       TEXT NOT NULL,
  action     TEXT NOT NULL CHECK (action IN ('submit', 'approve', 'reject', 'reopen')),
  by_id      INTEGER NOT NULL REFERENCES users (id),
  at         INTEGER NOT NULL,
  comment    TEXT
) STRICT;
CREATE INDEX week_part_decisions_part ON week_part_decisions (user_id, project_id, week, id);

-- The lock date: no entry dated before it can be created, changed, deleted or restored by
-- anyone. At most one row; none means no lock date.
CREATE TABLE lock_date (
  id     INTEGER PRIMARY KEY CHECK (id = 1),
  before TEXT NOT NULL
) STRICT;
